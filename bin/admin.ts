/**
 * The operator CLI: `npm run admin -- <command> [options]`. Each command prints its result as one
 * JSON object on stdout; errors go to stderr with a non-zero exit code.
 *
 * It works on the local store (also while `npm start` runs: both use the same engine), or, when
 * TABLE_NAME is set, on that deployed DynamoDB table with the usual AWS credentials and region.
 */
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { type LocalPurchasing, startLocalPurchasing } from '../local/local-purchasing';
import { openLocalRuntime, readLocalConfig } from '../local/local-runtime';
import { bundledCatalog } from '../shared/app/bundled-catalog';
import { importCommitments } from '../shared/app/import-commitments';
import type { ImportProgress, ImportRequest } from '../shared/app/import-files';
import { defaultImportLeaseMs, type ImportSessionOptions } from '../shared/app/import-sessions';
import { importUsage } from '../shared/app/import-usage';
import {
  createOrg,
  createPartner,
  createUserKey,
  listOrgs,
  revokeKey,
  setCommitmentSharing,
} from '../shared/app/operator';
import type { AppContext } from '../shared/app/ports';
import {
  completePurchase,
  listPurchases,
  retryPurchase,
  setMaxUpfrontCost,
} from '../shared/app/purchase-operations';
import { stuckPurchases, sweepPurchases } from '../shared/app/purchase-sweep';
import { repairFutureUsage } from '../shared/app/repair-usage';
import type { UsagePlanKeys } from '../shared/auth/usage-plan-keys';
import { purchaseRecordView } from '../shared/contract/purchases';
import type { Catalog } from '../shared/domain/catalog/catalog';
import { cloudProviders } from '../shared/domain/cloud-providers';
import { CsvImportError, formatCsvLineError } from '../shared/domain/csv/csv-import-error';
import { type CommitmentSharing, commitmentSharings, type Provider } from '../shared/domain/engine';
import { DomainError } from '../shared/domain/errors';
import { type MembershipRole, membershipRoles, type Organization } from '../shared/domain/orgs';
import type { PurchaseQueue } from '../shared/queue/purchase-queue';
import { createAwsAppContext, readAwsConfig } from '../shared/runtime/aws';
import { createAwsUsagePlanKeys } from '../shared/runtime/aws-usage-plan';
import { installAppContext } from '../shared/runtime/current';
import { awsDeadLetters, purchaseQueue } from '../shared/runtime/purchasing';

const usage = `Usage: npm run admin -- <command> [options]

Commands:
  create-partner --name <name>                             a partner org and its partner API key
  create-org --name <name> [--partner <partner_org_id>]    an org, optionally a partner's child
  create-key --org <org_id> --email <email> --role <role>  a user API key (creates user and membership
                                                           if needed); roles: ${membershipRoles.join(', ')}
  revoke-key <key_id>                                      revoke an API key (its id is the part after cpk_)
  register-usage-key <key_id>                              give an existing API key its throttle bucket in the
                                                           deployed API's usage plan (keys made before it)
  list-orgs                                                every org
  set-org --org <org_id> [--sharing <scope>] [--max-upfront-cost <usd|none>]
                                                           --sharing: whose usage the org's commitments
                                                           cover: organization (every account; the
                                                           default) or account (the buying account's
                                                           only); recomputes the org's plans.
                                                           --max-upfront-cost: the most one plan's
                                                           purchases may pay upfront (none: no cap)
  list-purchases --org <org_id> [--plan <plan_id>]         the org's purchase records (or one plan's)
  retry-purchase --plan <plan_id> --line <line_item_id>    queue a failed purchase again, with the same
                                                           client token (a retry never buys twice)
  complete-purchase --plan <plan_id> --line <line_item_id> --reference <ref>
                                                           record that an operator bought a manual
                                                           purchase (guaranteed offers, Azure, GCP)
  dead-letters [--redrive]                                 purchase messages the queue gave up on; with
                                                           --redrive, move them back to the queue
  import-usage --org <org_id> --file <csv>                 replace the org's hourly usage on the hours the
                                                           file covers, per provider in the file
  import-commitments --org <org_id> --file <csv>           replace the org's commitments of the providers
                                                           the file names
  repair-usage --org <org_id> --provider <provider>        drop the provider's stored usage after the
                                                           present hour (imported with future-dated rows)

Import options (import-usage, import-commitments, repair-usage):
  --take-over            begin even while another import of the org and provider is open; that one
                         stops at its next write (use it only when that import's process has stopped)
  --lease-seconds <n>    how long this import may go without writing before it counts as abandoned
                         (default ${defaultImportLeaseMs / 1000}); it renews the lease while it writes

Target: the local store under LOCAL_DIR (default .local), or the deployed table named by
TABLE_NAME (with AWS credentials and AWS_REGION). On AWS, commands that create or revoke keys also
need USAGE_PLAN_ID (the API stack's TenantUsagePlanId output): each key gets its own throttle
bucket there, and the deployed API refuses a key that has none (docs/deploy.md).
API keys are printed once: only their hash is stored.
Purchases (docs/purchases.md): locally, retry-purchase and dead-letters --redrive run the
purchase pipeline in this process and wait until it is done; on AWS they send to the queue named
by PURCHASE_QUEUE_URL (dead letters: PURCHASE_DLQ_URL). Locally dead letters live in the server's
memory, so dead-letters lists the purchases that are stuck (what the DLQ would hold) and
--redrive sends them again now.
Imports (file formats: docs/import.md) print progress on stderr; a file with any bad row is
rejected whole, its errors listed by line number, and nothing of it is stored. An import of an
org and provider another import holds open is refused (exit code 1) unless --take-over. At the
end, an import computes the plans of the providers it changed.`;

class UsageError extends Error {}

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function roleOption(options: Options): MembershipRole {
  const role = required(options, 'role');
  if (!(membershipRoles as readonly string[]).includes(role)) {
    throw new UsageError(`--role must be one of ${membershipRoles.join(', ')}; got ${role}`);
  }
  return role as MembershipRole;
}

function sharingOption(options: Options): CommitmentSharing {
  const sharing = required(options, 'sharing');
  if (!(commitmentSharings as readonly string[]).includes(sharing)) {
    throw new UsageError(`--sharing must be one of ${commitmentSharings.join(', ')}; got ${sharing}`);
  }
  return sharing as CommitmentSharing;
}

function providerOption(options: Options): Provider {
  const provider = required(options, 'provider');
  if (!(cloudProviders as readonly string[]).includes(provider)) {
    throw new UsageError(`--provider must be one of ${cloudProviders.join(', ')}; got ${provider}`);
  }
  return provider as Provider;
}

/** --max-upfront-cost: dollars, or `none` for no cap. */
function maxUpfrontOption(options: Options): number | null {
  const value = required(options, 'max-upfront-cost');
  if (value === 'none') return null;
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < 0) {
    throw new UsageError(`--max-upfront-cost must be dollars (0 or more) or none; got ${value}`);
  }
  return amount;
}

/** --take-over and --lease-seconds: how an import treats another open import, and its own lease. */
function sessionOptions(options: Options): ImportSessionOptions {
  const lease = options['lease-seconds'];
  let leaseMs: number | undefined;
  if (lease !== undefined) {
    const seconds = Number(lease);
    if (typeof lease !== 'string' || !Number.isInteger(seconds) || seconds < 1) {
      throw new UsageError(`--lease-seconds must be a whole number of seconds >= 1; got ${lease}`);
    }
    leaseMs = seconds * 1000;
  }
  return { takeOver: options['take-over'] === true, ...(leaseMs === undefined ? {} : { leaseMs }) };
}

function orgJson(org: Organization) {
  return { org_id: org.id, name: org.name, is_partner: org.isPartner, partner_org_id: org.parentOrgId };
}

/** Prints import progress on stderr: file reading and writing on large files, then each provider's plans. */
function progressPrinter(bytesRead: () => number): (progress: ImportProgress) => void {
  let large = false;
  return (progress) => {
    if (progress.stage === 'reading') {
      large = true;
      console.error(`read ${progress.rows} rows (${(bytesRead() / 1e6).toFixed(1)} MB)...`);
    } else if (progress.stage === 'planning') {
      // Computing plans takes seconds even after a small file.
      console.error(`computing ${progress.provider} plans...`);
    } else if (large) {
      const what = progress.month ? `usage of ${progress.month}` : 'commitments';
      console.error(`writing ${progress.provider} ${what}...`);
    }
  };
}

/** Runs an import of the file named by --file into the org named by --org, streaming its lines. */
async function importFile<T>(options: Options, run: (request: ImportRequest) => Promise<T>): Promise<T> {
  const orgId = required(options, 'org');
  const path = required(options, 'file');
  const handle = await open(path).catch((error: Error) => {
    throw new Error(`cannot read ${path}: ${error.message}`);
  });
  const stream = handle.createReadStream();
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  // Taken before the use case awaits anything: readline emits the lines of a small file before a
  // late `for await` starts, which would then wait forever for lines already gone.
  const lines = reader[Symbol.asyncIterator]();
  try {
    return await run({
      orgId,
      lines,
      onProgress: progressPrinter(() => stream.bytesRead),
      ...sessionOptions(options),
    });
  } finally {
    reader.close();
    stream.destroy();
  }
}

/** Where the CLI works: the store, and on AWS the usage plan that throttles each key. */
interface Target {
  readonly ctx: AppContext;
  /**
   * The deployed API's usage plan keys; null on the local store, whose server throttles by the
   * usage identifier alone (nothing to register).
   */
  readonly usagePlanKeys: () => UsagePlanKeys | null;
  /** The purchase pipeline the command sends to, built on first use. */
  readonly purchasing: () => Promise<AdminPurchasing>;
}

interface AdminPurchasing {
  readonly ctx: AppContext & {
    readonly purchaseQueue: PurchaseQueue;
    readonly catalog: () => Promise<Catalog>;
  };
  /** Dead letters as the target has them (AWS: the DLQ; local: the stuck purchases). */
  deadLetters(): Promise<object[]>;
  redrive(): Promise<object>;
  /** Waits until what was sent is handled (locally), then stops. */
  finish(): Promise<void>;
}

const commands: Record<string, (target: Target, options: Options, args: string[]) => Promise<object>> = {
  'create-partner': async ({ ctx, usagePlanKeys }, options) => {
    const plan = usagePlanKeys();
    const { org, key } = await createPartner(ctx, required(options, 'name'));
    await plan?.register(key.keyId);
    return { ...orgJson(org), key_id: key.keyId, api_key: key.apiKey };
  },
  'create-org': async ({ ctx }, options) => {
    const partner = typeof options.partner === 'string' ? options.partner : null;
    return orgJson(await createOrg(ctx, required(options, 'name'), partner));
  },
  'create-key': async ({ ctx, usagePlanKeys }, options) => {
    const email = required(options, 'email');
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 255) {
      throw new UsageError(`--email must be an e-mail address of at most 255 characters; got ${email}`);
    }
    const plan = usagePlanKeys();
    const { membership, key } = await createUserKey(
      ctx,
      required(options, 'org'),
      email,
      roleOption(options),
    );
    await plan?.register(key.keyId);
    return {
      org_id: membership.orgId,
      email: membership.email,
      role: membership.role,
      key_id: key.keyId,
      api_key: key.apiKey,
    };
  },
  'revoke-key': async ({ ctx, usagePlanKeys }, _options, args) => {
    const keyId = args[0];
    if (!keyId) throw new UsageError('revoke-key needs the key id');
    const plan = usagePlanKeys();
    const record = await revokeKey(ctx, keyId);
    // The authorizer refuses the key already; this frees its API Gateway key (a regional quota).
    await plan?.remove(keyId);
    return { key_id: record.keyId, revoked_at: record.revokedAt };
  },
  'register-usage-key': async ({ ctx, usagePlanKeys }, _options, args) => {
    const keyId = args[0];
    if (!keyId) throw new UsageError('register-usage-key needs the key id');
    const plan = usagePlanKeys();
    const record = await ctx.repos.apiKeys.get(keyId);
    if (!record || record.revokedAt !== null) throw new UsageError(`no unrevoked API key ${keyId}`);
    await plan?.register(keyId);
    return { key_id: keyId, registered: plan !== null };
  },
  'list-orgs': async ({ ctx }) => ({ orgs: (await listOrgs(ctx)).map(orgJson) }),
  'set-org': async ({ ctx }, options) => {
    const orgId = required(options, 'org');
    if (options.sharing === undefined && options['max-upfront-cost'] === undefined) {
      throw new UsageError('set-org needs --sharing or --max-upfront-cost');
    }
    const maxUpfront = options['max-upfront-cost'] === undefined ? undefined : maxUpfrontOption(options);
    let result: { org: Organization; recomputed: readonly Provider[] } | null = null;
    if (options.sharing !== undefined)
      result = await setCommitmentSharing(ctx, orgId, sharingOption(options));
    const org = maxUpfront === undefined ? result?.org : await setMaxUpfrontCost(ctx, orgId, maxUpfront);
    if (!org) throw new UsageError('set-org changed nothing');
    return {
      org_id: org.id,
      commitment_sharing: org.commitmentSharing,
      max_upfront_cost: org.maxUpfrontCost,
      ...(result ? { recomputed_providers: result.recomputed } : {}),
    };
  },
  'list-purchases': async ({ ctx }, options) => {
    const plan = typeof options.plan === 'string' ? options.plan : undefined;
    const records = await listPurchases(ctx, required(options, 'org'), plan);
    return { purchases: records.map(purchaseRecordView) };
  },
  'retry-purchase': async ({ purchasing }, options) => {
    const pipeline = await purchasing();
    const record = await retryPurchase(pipeline.ctx, required(options, 'plan'), required(options, 'line'));
    await pipeline.finish();
    const current = await pipeline.ctx.repos.purchases.get(record.planId, record.lineItemId);
    return { purchase: purchaseRecordView(current ?? record) };
  },
  'complete-purchase': async ({ purchasing }, options) => {
    const pipeline = await purchasing();
    const record = await completePurchase(
      pipeline.ctx,
      required(options, 'plan'),
      required(options, 'line'),
      required(options, 'reference'),
    );
    return { purchase: purchaseRecordView(record) };
  },
  'dead-letters': async ({ purchasing }, options) => {
    const pipeline = await purchasing();
    if (options.redrive === true) {
      const redriven = await pipeline.redrive();
      await pipeline.finish();
      return redriven;
    }
    return { dead_letters: await pipeline.deadLetters() };
  },
  'import-usage': async ({ ctx }, options) => {
    const summary = await importFile(options, (request) => importUsage(ctx, request));
    return {
      org_id: summary.orgId,
      rows: summary.rows,
      providers: summary.providers.map((imported) => ({
        provider: imported.provider,
        rows: imported.rows,
        resources: imported.resources,
        first_hour: imported.firstHour,
        last_hour: imported.lastHour,
        hours: imported.hours,
        usage_version: imported.usageVersion,
      })),
    };
  },
  'import-commitments': async ({ ctx }, options) => {
    const summary = await importFile(options, (request) => importCommitments(ctx, request));
    return {
      org_id: summary.orgId,
      rows: summary.rows,
      providers: summary.providers.map((imported) => ({
        provider: imported.provider,
        commitments: imported.commitments,
        usage_version: imported.usageVersion,
      })),
    };
  },
  'repair-usage': async ({ ctx }, options) => {
    const repair = await repairFutureUsage(
      ctx,
      required(options, 'org'),
      providerOption(options),
      sessionOptions(options),
    );
    return {
      org_id: repair.orgId,
      provider: repair.provider,
      repaired: repair.repaired,
      kept_until: repair.keptUntil,
      last_hour: repair.lastHour,
      usage_version: repair.usageVersion,
    };
  },
};

async function withTarget<T>(work: (target: Target) => Promise<T>): Promise<T> {
  if (process.env.TABLE_NAME) {
    const config = readAwsConfig(process.env);
    const usagePlanKeys = createAwsUsagePlanKeys(process.env, config);
    const ctx = createAwsAppContext(config);
    return work({
      ctx,
      purchasing: async () => {
        const deadLetters = awsDeadLetters(process.env);
        return {
          ctx: { ...ctx, purchaseQueue: purchaseQueue(), catalog: bundledCatalog },
          deadLetters: async () =>
            (await deadLetters.list()).map((letter) => ({
              message_id: letter.messageId,
              purchase: letter.message,
              receive_count: letter.receiveCount,
              first_sent_at: letter.firstSentAt,
            })),
          redrive: async () => ({ redrive_task: await deadLetters.redrive() }),
          finish: async () => undefined,
        };
      },
      usagePlanKeys: () => {
        if (usagePlanKeys === null) {
          throw new UsageError(
            'USAGE_PLAN_ID is not set: the TenantUsagePlanId output of the API stack. Without it, the deployed API would refuse the key (403).',
          );
        }
        return usagePlanKeys;
      },
    });
  }
  const runtime = await openLocalRuntime(readLocalConfig(process.env));
  let local: LocalPurchasing | null = null;
  try {
    return await work({
      ctx: runtime.ctx,
      usagePlanKeys: () => null,
      purchasing: async () => {
        // The same pipeline as `npm start`, in this process: the handlers read these contexts.
        installAppContext(runtime.ctx);
        local ??= await startLocalPurchasing({ sweepIntervalMs: 3_600_000 });
        const pipeline = local;
        const ctx = { ...runtime.ctx, purchaseQueue: pipeline.queue, catalog: bundledCatalog };
        return {
          ctx,
          deadLetters: async () => (await stuckPurchases(ctx)).map(purchaseRecordView),
          redrive: async () => ({ ...(await sweepPurchases(ctx, 0)) }),
          finish: () => pipeline.queue.idle(),
        };
      },
    });
  } finally {
    await (local as LocalPurchasing | null)?.close();
    await runtime.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      name: { type: 'string' },
      partner: { type: 'string' },
      org: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      file: { type: 'string' },
      sharing: { type: 'string' },
      provider: { type: 'string' },
      'take-over': { type: 'boolean' },
      'lease-seconds': { type: 'string' },
      'max-upfront-cost': { type: 'string' },
      plan: { type: 'string' },
      line: { type: 'string' },
      reference: { type: 'string' },
      redrive: { type: 'boolean' },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || !command) {
    console.log(usage);
    return values.help ? 0 : 2;
  }
  const run = commands[command];
  if (!run) throw new UsageError(`unknown command ${command}`);
  const result = await withTarget((target) => run(target, values, args));
  console.log(JSON.stringify(result));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      console.error(`admin: ${message}\n\n${usage}`);
      process.exit(2);
    }
    if (error instanceof CsvImportError) {
      for (const lineError of error.errors) console.error(formatCsvLineError(lineError));
      const unlisted = error.errorCount - error.errors.length;
      if (unlisted > 0) console.error(`... and ${unlisted} more`);
    }
    console.error(`admin: ${error instanceof DomainError ? message : `failed: ${message}`}`);
    process.exit(1);
  },
);
