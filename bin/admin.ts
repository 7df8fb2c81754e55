/**
 * The operator CLI: `npm run admin -- <command> [options]`. Each command prints its result as one
 * JSON object on stdout; errors go to stderr with a non-zero exit code.
 *
 * It works on the local store (also while `npm start` runs: both use the same engine), or, when
 * TABLE_NAME is set, on that deployed DynamoDB table with the usual AWS credentials and region.
 */
import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { openInvocationScopes } from '../local/local-invocation-scope';
import { localServiceAccountId } from '../local/local-onboarding';
import { type LocalPurchasing, startLocalPurchasing } from '../local/local-purchasing';
import { openLocalRuntime, readLocalConfig } from '../local/local-runtime';
import {
  awsCalls,
  azureRoles,
  changeSimulatedCloud,
  connectedAwsAccount,
  connectedAzureTenant,
  readSimulatedCloud,
} from '../local/simulated-cloud';
import { deliverSimulatedAwsFile, setSimulatedAwsCommitments } from '../local/simulated-usage-sources';
import { bundledCatalog } from '../shared/app/bundled-catalog';
import { importCommitments } from '../shared/app/import-commitments';
import type { ImportProgress, ImportRequest } from '../shared/app/import-files';
import { defaultImportLeaseMs, type ImportSessionOptions } from '../shared/app/import-sessions';
import {
  type ExportImportSummary,
  importUsage,
  importUsageExport,
  type UsageImportSummary,
} from '../shared/app/import-usage';
import {
  createOperatorClient,
  listClients,
  revokeClient,
  revokeUserTokens,
} from '../shared/app/oauth/clients';
import { ensureOnboarding } from '../shared/app/onboarding';
import {
  createOrg,
  createPartner,
  createUserKey,
  listOrgs,
  revokeKey,
  setCommitmentSharing,
  setRenewalHorizonDays,
} from '../shared/app/operator';
import { computingPlansHere } from '../shared/app/plan-computation';
import type { AppContext, PurchaseQueue } from '../shared/app/ports';
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
import { loadCatalog } from '../shared/domain/catalog/catalog';
import { cloudProviders } from '../shared/domain/cloud-providers';
import { createCommitmentCsvParser } from '../shared/domain/commitments/commitment-csv';
import { CsvImportError, formatCsvLineError } from '../shared/domain/csv/csv-import-error';
import {
  type CommitmentSharing,
  commitmentSharings,
  isRenewalHorizonDays,
  MAX_RENEWAL_HORIZON_DAYS,
  type Provider,
} from '../shared/domain/engine';
import type { ExistingCommitment } from '../shared/domain/engine/model';
import { DomainError } from '../shared/domain/errors';
import type { OAuthClient } from '../shared/domain/oauth/records';
import { type MembershipRole, membershipRoles, type Organization } from '../shared/domain/orgs';
import {
  type ImportFormat,
  importFormats,
  isImportFormat,
} from '../shared/domain/usage/exports/export-formats';
import { readCsvRecords } from '../shared/exports/csv-records';
import { fileExportSource } from '../shared/exports/file-export-source';
import { readExport } from '../shared/exports/read-export';
import { createAppContext } from '../shared/runtime/app-context';
import { createAwsTable, readAwsConfig } from '../shared/runtime/aws';
import { createAwsUsagePlanKeys } from '../shared/runtime/aws-usage-plan';
import { awsDeadLetters, awsPurchaseQueue } from '../shared/runtime/purchasing';
import type { TableClient } from '../shared/store/table-client';
import { syncCommand, syncUsageText } from './admin/sync-command';

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
  set-org --org <org_id> [--sharing <scope>] [--renewal-horizon-days <days>]
          [--max-upfront-cost <usd|none>]
                                                           --sharing: whose usage the org's commitments
                                                           cover: organization (every account; the
                                                           default) or account (the buying account's
                                                           only); recomputes the org's plans.
                                                           --renewal-horizon-days: a commitment ending
                                                           within this many days (0-365; default 30)
                                                           is renewed, not counted; recomputes the
                                                           org's plans.
                                                           --max-upfront-cost: the most the org's
                                                           purchases may pay upfront over any 30
                                                           days (none: no cap)
  list-purchases --org <org_id> [--plan <plan_id>]         the org's purchase records (or one plan's)
  retry-purchase --plan <plan_id> --line <line_item_id>    queue a failed purchase again, with the same
                                                           client token (a retry never buys twice)
  complete-purchase --plan <plan_id> --line <line_item_id> --reference <ref> [--quantity <n>]
                                                           record that an operator bought a manual
                                                           purchase (guaranteed offers, Azure, GCP);
                                                           the org owns it and its plans are
                                                           recomputed. --quantity: what was bought,
                                                           in the offer's unit, as the plan counts
                                                           it: instances (instance reservations),
                                                           normalized units (size-flexible ones,
                                                           stored as instances of the size bought),
                                                           $/h (savings plans); default: the planned
                                                           quantity
  dead-letters [--redrive]                                 purchase messages the queue gave up on; with
                                                           --redrive, move them back to the queue
  create-oauth-client --name <name> --redirect-uri <uri>[,<uri>...] [--public | --auth-method <m>]
                                                           an OAuth client: confidential (a secret,
                                                           printed once; --auth-method
                                                           client_secret_basic (default) or
                                                           client_secret_post) or --public (PKCE only)
  list-oauth-clients                                       every OAuth client (operators' and registered)
  revoke-oauth-client <client_id>                          refuse the client from now on and revoke
                                                           every token it holds
  revoke-tokens --user <email>                             revoke every OAuth token of the user
  import-usage --org <org_id> --file <file> [--format <f>] replace the org's hourly usage on the hours the
                                                           file covers, per provider in the file; the file:
                                                           the usage CSV, or a billing export (CUR 2.0,
                                                           legacy CUR, FOCUS 1.0/1.2; Parquet, CSV or gzip
                                                           CSV), detected from its columns; --format
                                                           ${importFormats.join('|')} overrides
  import-commitments --org <org_id> --file <csv>           replace the org's commitments of the providers
                                                           the file names
  repair-usage --org <org_id> --provider <provider>        drop the provider's stored usage after the
                                                           present hour (imported with future-dated rows)

${syncUsageText}

  simulate-cloud aws --account <id> [--org <org_id> | --external-id <id>] [changes]
                                                           add or change an AWS account of the local
                                                           simulated cloud (docs/onboarding.md). A new
                                                           account is connected as the onboarding asks
                                                           (the role, with --org's external id, an hourly
                                                           Parquet export, delivered, every permission);
                                                           changes: --without-role, --granularity
                                                           HOURLY|DAILY|MONTHLY, --format parquet|csv,
                                                           --without-resource-ids, --undelivered,
                                                           --deny <calls>, --allow <calls>, --throttle
                                                           <calls> (calls: ${awsCalls.join(', ')}; comma
                                                           list; --throttle none clears), --bucket, --prefix,
                                                           --report-name (of a new account's export)
  simulate-cloud aws --account <id> --deliver <file> --period <YYYY-MM> [--replace]
                                                           deliver a CUR 2.0, FOCUS or legacy CUR file into
                                                           the account's export as AWS does (data file and
                                                           the period's manifest); --replace replaces the
                                                           period's files
  simulate-cloud aws --account <id> --commitments <csv>    set the reservations and savings plans the
                                                           account owns (the commitments CSV of docs/import.md)
  simulate-cloud azure --tenant <id> --subscription <id> [--consent | --without-consent]
                       [--roles <role,...>] [--without-cost-export]
                                                           add or change an Azure tenant: a new one has no
                                                           consent yet (the consent page grants it) and
                                                           every role: ${Object.keys(azureRoles).join(', ')}
  simulate-cloud show                                      the simulated cloud document
  simulate-cloud latency --ms <n>                          make every simulated call take n ms

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

/** --quantity: a number more than 0, in the offer's unit; absent: undefined. */
function quantityOption(options: Options): number | undefined {
  const value = options.quantity;
  if (value === undefined) return undefined;
  const quantity = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(quantity) || quantity <= 0) {
    throw new UsageError(`--quantity must be a number more than 0, in the offer's unit; got ${value}`);
  }
  return quantity;
}

/** --renewal-horizon-days: whole days from 0 to the most allowed. */
function renewalHorizonOption(options: Options): number {
  const value = required(options, 'renewal-horizon-days');
  const days = Number(value);
  if (!/^\d+$/.test(value) || !isRenewalHorizonDays(days)) {
    throw new UsageError(
      `--renewal-horizon-days must be a whole number of days from 0 to ${MAX_RENEWAL_HORIZON_DAYS}; got ${value}`,
    );
  }
  return days;
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

function oauthClientJson(client: OAuthClient) {
  return {
    client_id: client.clientId,
    name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.authMethod,
    registration: client.registration,
    created_at: client.createdAt,
    revoked_at: client.revokedAt,
  };
}

function orgJson(org: Organization) {
  return { org_id: org.id, name: org.name, is_partner: org.isPartner, partner_org_id: org.parentOrgId };
}

/** Prints import progress on stderr: file reading and writing on large files, then each provider's plans. */
function progressPrinter(bytesRead: () => number | undefined): (progress: ImportProgress) => void {
  let large = false;
  return (progress) => {
    if (progress.stage === 'reading') {
      large = true;
      const bytes = bytesRead();
      console.error(
        `read ${progress.rows} rows${bytes === undefined ? '' : ` (${(bytes / 1e6).toFixed(1)} MB)`}...`,
      );
    } else if (progress.stage === 'planning') {
      // Computing plans takes seconds even after a small file.
      console.error(`computing ${progress.provider} plans...`);
    } else if (large) {
      const what = progress.month ? `usage of ${progress.month}` : 'commitments';
      console.error(`writing ${progress.provider} ${what}...`);
    }
  };
}

/** Runs an import of the file named by --file into the org named by --org, streaming its records. */
async function importFile<T>(options: Options, run: (request: ImportRequest) => Promise<T>): Promise<T> {
  const orgId = required(options, 'org');
  const path = required(options, 'file');
  const handle = await open(path).catch((error: Error) => {
    throw new Error(`cannot read ${path}: ${error.message}`);
  });
  const stream = handle.createReadStream();
  try {
    return await run({
      orgId,
      records: readCsvRecords(stream),
      onProgress: progressPrinter(() => stream.bytesRead),
      ...sessionOptions(options),
    });
  } finally {
    stream.destroy();
  }
}

/** --format of import-usage: one of the formats read, or undefined to detect it from the columns. */
function importFormatOption(options: Options): ImportFormat | undefined {
  const format = options.format;
  if (format === undefined) return undefined;
  if (typeof format !== 'string' || !isImportFormat(format)) {
    throw new UsageError(`--format must be one of ${importFormats.join(', ')}; got ${format}`);
  }
  return format;
}

/**
 * import-usage: the project's usage CSV through its record reader, a billing export (CUR 2.0,
 * legacy CUR, FOCUS; Parquet, CSV or gzip CSV) through the export readers.
 */
async function importUsageFile(
  ctx: AppContext,
  options: Options,
): Promise<UsageImportSummary | ExportImportSummary> {
  const format = importFormatOption(options);
  if (format === 'usage-csv') return importFile(options, (request) => importUsage(ctx, request));
  const orgId = required(options, 'org');
  const path = required(options, 'file');
  const source = await fileExportSource(path).catch((error: Error) => {
    throw new Error(`cannot read ${path}: ${error.message}`);
  });
  try {
    const rows = await readExport(source, format);
    if (rows.format === 'usage-csv') return importFile(options, (request) => importUsage(ctx, request));
    return await importUsageExport(ctx, {
      orgId,
      rows,
      onProgress: progressPrinter(() => undefined),
      ...sessionOptions(options),
    });
  } finally {
    await source.close();
  }
}

/** Where the CLI works: the store, and on AWS the usage plan that throttles each key. */
interface Target {
  readonly ctx: AppContext;
  /** The table the context stores in (the usage sync's state is read there too). */
  readonly table: TableClient;
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

/** Comma-separated names, each one of `allowed`. */
function listOption<T extends string>(
  options: Options,
  name: string,
  allowed: readonly T[],
): T[] | undefined {
  const value = options[name];
  if (typeof value !== 'string') return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '' && item !== 'none');
  const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0)
    throw new UsageError(`--${name}: unknown ${unknown.join(', ')}; one of ${allowed.join(', ')}`);
  return items as T[];
}

function choiceOption<T extends string>(
  options: Options,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** `simulate-cloud`: the local simulated cloud, never a deployed one. */
async function simulateCloud(target: Target, options: Options, args: string[]): Promise<object> {
  if (process.env.TABLE_NAME)
    throw new UsageError('simulate-cloud changes the local simulated cloud: unset TABLE_NAME');
  const dir = readLocalConfig(process.env).dir;
  const [what] = args;
  if (what === 'show') return readSimulatedCloud(dir);
  if (what === 'latency') {
    const ms = Number(required(options, 'ms'));
    if (!Number.isInteger(ms) || ms < 0) throw new UsageError('--ms must be a whole number of milliseconds');
    return changeSimulatedCloud(dir, (cloud) => {
      cloud.latency_ms = ms;
    });
  }
  if (what === 'aws') return { aws: await simulateAwsAccount(target, options, dir) };
  if (what === 'azure') return { azure: await simulateAzureTenant(options, dir) };
  throw new UsageError('simulate-cloud needs aws, azure, show or latency');
}

async function simulateAwsAccount(target: Target, options: Options, dir: string): Promise<object> {
  const accountId = required(options, 'account');
  if (!/^\d{12}$/.test(accountId)) throw new UsageError('--account must be a 12-digit AWS account id');
  const orgId = typeof options.org === 'string' ? options.org : null;
  if (orgId !== null && !(await target.ctx.repos.orgs.get(orgId))) {
    throw new UsageError(`--org ${orgId}: no such org`);
  }
  const externalId =
    typeof options['external-id'] === 'string'
      ? options['external-id']
      : orgId
        ? (await ensureOnboarding(target.ctx, orgId)).externalId
        : null;
  const deny = listOption(options, 'deny', simulatedPermissions);
  const allow = listOption(options, 'allow', simulatedPermissions);
  const throttle = listOption(options, 'throttle', awsCalls);
  const granularity = choiceOption(options, 'granularity', ['HOURLY', 'DAILY', 'MONTHLY'] as const);
  const format = choiceOption(options, 'format', ['parquet', 'csv'] as const);
  const serviceAccountId = process.env.SERVICE_AWS_ACCOUNT_ID ?? localServiceAccountId;
  const cloud = await changeSimulatedCloud(dir, (current) => {
    let account = current.aws[accountId];
    if (!account) {
      if (externalId === null) throw new UsageError('a new account needs --org <org_id> or --external-id');
      account = connectedAwsAccount({
        serviceAccountId,
        externalId,
        bucket: typeof options.bucket === 'string' ? options.bucket : `cost-exports-${accountId}`,
        prefix: typeof options.prefix === 'string' ? options.prefix : 'cur',
        reportName:
          typeof options['report-name'] === 'string' ? options['report-name'] : 'hourly-cost-and-usage',
      });
      current.aws[accountId] = account;
    } else if (externalId !== null && account.role) {
      account.role.external_id = externalId;
    }
    if (options['without-role']) account.role = null;
    for (const cur of account.exports) {
      if (granularity) cur.granularity = granularity;
      if (format) cur.format = format;
      if (options['without-resource-ids']) cur.resource_ids = false;
    }
    if (options.undelivered) for (const bucket of Object.values(account.buckets)) bucket.objects = [];
    for (const call of allow ?? []) account.permissions[call] = true;
    for (const call of deny ?? []) account.permissions[call] = false;
    if (throttle) account.throttled = throttle;
  });
  const delivered = await deliverOption(options, (file, period, replace) =>
    deliverSimulatedAwsFile(dir, accountId, file, period, replace),
  );
  if (typeof options.commitments === 'string') {
    await setSimulatedAwsCommitments(
      dir,
      accountId,
      await commitmentsFile(options.commitments, 'aws', accountId),
    );
  }
  const account = (await readSimulatedCloud(dir)).aws[accountId] ?? cloud.aws[accountId];
  return { account_id: accountId, ...account, ...(delivered ? { delivered } : {}) };
}

/** `--deliver FILE --period YYYY-MM [--replace]`: delivers the file into the simulated export. */
async function deliverOption<T>(
  options: Options,
  deliver: (file: string, period: string, replace: boolean) => Promise<T>,
): Promise<T | null> {
  if (typeof options.deliver !== 'string') return null;
  const period = required(options, 'period');
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) throw new UsageError('--period must be a month, YYYY-MM');
  return deliver(options.deliver, period, options.replace === true);
}

/** The rows of a commitments CSV (docs/import.md), all of `provider`: what the simulated describe calls answer. */
async function commitmentsFile(
  path: string,
  provider: Provider,
  owner: string,
): Promise<ExistingCommitment[]> {
  const handle = await open(path).catch((error: Error) => {
    throw new UsageError(`cannot read ${path}: ${error.message}`);
  });
  const parser = createCommitmentCsvParser(`simulated-${owner}`, loadCatalog());
  try {
    for await (const batch of readCsvRecords(handle.createReadStream()))
      for (const record of batch) parser.push(record);
  } finally {
    await handle.close();
  }
  const parsed = parser.finish();
  const other = parsed.providers.find((each) => each.provider !== provider);
  if (other)
    throw new UsageError(`--commitments ${path} has ${other.provider} rows; ${owner} is on ${provider}`);
  return [...(parsed.providers[0]?.commitments ?? [])];
}

async function simulateAzureTenant(options: Options, dir: string): Promise<object> {
  const tenantId = required(options, 'tenant');
  const subscriptionId = required(options, 'subscription');
  const roles = listOption(options, 'roles', Object.keys(azureRoles));
  const cloud = await changeSimulatedCloud(dir, (current) => {
    const tenant = current.azure[tenantId] ?? { ...connectedAzureTenant(subscriptionId), consent: false };
    current.azure[tenantId] = tenant;
    const subscription = tenant.subscriptions[subscriptionId] ??
      connectedAzureTenant(subscriptionId).subscriptions[subscriptionId] ?? {
        display_name: subscriptionId,
        cost_exports: [],
        role_assignments: [],
      };
    tenant.subscriptions[subscriptionId] = subscription;
    if (options.consent) tenant.consent = true;
    if (options['without-consent']) tenant.consent = false;
    if (roles) subscription.role_assignments = roles;
    if (options['without-cost-export']) subscription.cost_exports = [];
  });
  return { tenant_id: tenantId, ...cloud.azure[tenantId] };
}

const simulatedPermissions = ['exports', 'bucket', 'cost_explorer', 'purchase'] as const;

const commands: Record<string, (target: Target, options: Options, args: string[]) => Promise<object>> = {
  'simulate-cloud': simulateCloud,
  sync: syncCommand,
  'create-partner': async ({ ctx, usagePlanKeys }, options) => {
    const plan = usagePlanKeys();
    const { org, key } = await createPartner(ctx, required(options, 'name'));
    await plan?.register(key.keyId);
    return { ...orgJson(org), key_id: key.keyId, api_key: key.apiKey };
  },
  'create-oauth-client': async ({ ctx }, options) => {
    const method = options.public === true ? 'none' : (options['auth-method'] ?? 'client_secret_basic');
    if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post') {
      throw new UsageError(`--auth-method must be client_secret_basic or client_secret_post; got ${method}`);
    }
    const { client, secret } = await createOperatorClient(ctx, {
      name: required(options, 'name'),
      redirectUris: required(options, 'redirect-uri')
        .split(',')
        .map((uri) => uri.trim())
        .filter((uri) => uri !== ''),
      authMethod: method,
    });
    // No API Gateway key: every client's tokens share the OAuth clients' key, and the service
    // throttles them per client and org (docs/http.md, "Throttling").
    return { ...oauthClientJson(client), ...(secret === null ? {} : { client_secret: secret }) };
  },
  'list-oauth-clients': async ({ ctx }) => ({ clients: (await listClients(ctx)).map(oauthClientJson) }),
  'revoke-oauth-client': async ({ ctx, usagePlanKeys }, _options, args) => {
    const clientId = args[0];
    if (!clientId) throw new UsageError('revoke-oauth-client needs the client id');
    const plan = usagePlanKeys();
    const { client, families } = await revokeClient(ctx, clientId);
    // A key an earlier version gave the client, if any.
    await plan?.removeOAuthClient(clientId);
    return { ...oauthClientJson(client), revoked_token_families: families };
  },
  'revoke-tokens': async ({ ctx }, options) => {
    const families = await revokeUserTokens(ctx, required(options, 'user'));
    return {
      user: required(options, 'user'),
      revoked_token_families: families.map((family) => ({
        family_id: family.familyId,
        client_id: family.clientId,
        org_id: family.orgId,
        created_at: family.createdAt,
      })),
    };
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
    const horizonGiven = options['renewal-horizon-days'] !== undefined;
    if (options.sharing === undefined && options['max-upfront-cost'] === undefined && !horizonGiven) {
      throw new UsageError('set-org needs --sharing, --renewal-horizon-days or --max-upfront-cost');
    }
    // Every option is checked before anything is written.
    const sharing = options.sharing === undefined ? undefined : sharingOption(options);
    const horizon = horizonGiven ? renewalHorizonOption(options) : undefined;
    const maxUpfront = options['max-upfront-cost'] === undefined ? undefined : maxUpfrontOption(options);
    let result: { org: Organization; recomputed: readonly Provider[] } | null = null;
    if (sharing !== undefined) result = await setCommitmentSharing(ctx, orgId, sharing);
    if (horizon !== undefined) {
      const changed = await setRenewalHorizonDays(ctx, orgId, horizon);
      result = {
        org: changed.org,
        recomputed: [...new Set([...(result?.recomputed ?? []), ...changed.recomputed])],
      };
    }
    const org = maxUpfront === undefined ? result?.org : await setMaxUpfrontCost(ctx, orgId, maxUpfront);
    if (!org) throw new UsageError('set-org changed nothing');
    return {
      org_id: org.id,
      commitment_sharing: org.commitmentSharing,
      renewal_horizon_days: org.renewalHorizonDays,
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
      computingPlansHere(pipeline.ctx),
      required(options, 'plan'),
      required(options, 'line'),
      required(options, 'reference'),
      quantityOption(options),
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
    const summary = await importUsageFile(ctx, options);
    return {
      org_id: summary.orgId,
      ...('format' in summary
        ? { format: summary.format, used_rows: summary.usedRows, skipped: summary.skipped }
        : {}),
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
    const table = createAwsTable(config);
    const ctx = createAppContext(table);
    return work({
      ctx,
      table,
      purchasing: async () => {
        const deadLetters = awsDeadLetters(process.env);
        return {
          ctx: { ...ctx, purchaseQueue: awsPurchaseQueue(process.env), catalog: bundledCatalog },
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
  // Before any AWS SDK call: the purchase pipeline runs its invocations in scopes of their own.
  const invocationScoped = await openInvocationScopes(process.env);
  const runtime = await openLocalRuntime(readLocalConfig(process.env));
  let local: LocalPurchasing | null = null;
  try {
    return await work({
      ctx: runtime.ctx,
      table: runtime.table,
      usagePlanKeys: () => null,
      purchasing: async () => {
        // The same pipeline as `npm start`, in this process, on the same context.
        local ??= await startLocalPurchasing({
          ctx: runtime.ctx,
          invocationScoped,
          sweepIntervalMs: 3_600_000,
        });
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
      'renewal-horizon-days': { type: 'string' },
      provider: { type: 'string' },
      'take-over': { type: 'boolean' },
      'lease-seconds': { type: 'string' },
      'max-upfront-cost': { type: 'string' },
      plan: { type: 'string' },
      line: { type: 'string' },
      reference: { type: 'string' },
      redrive: { type: 'boolean' },
      'redirect-uri': { type: 'string' },
      public: { type: 'boolean' },
      'auth-method': { type: 'string' },
      user: { type: 'string' },
      account: { type: 'string' },
      'external-id': { type: 'string' },
      'without-role': { type: 'boolean' },
      granularity: { type: 'string' },
      format: { type: 'string' },
      'without-resource-ids': { type: 'boolean' },
      undelivered: { type: 'boolean' },
      deny: { type: 'string' },
      allow: { type: 'string' },
      throttle: { type: 'string' },
      bucket: { type: 'string' },
      prefix: { type: 'string' },
      'report-name': { type: 'string' },
      tenant: { type: 'string' },
      subscription: { type: 'string' },
      consent: { type: 'boolean' },
      'without-consent': { type: 'boolean' },
      roles: { type: 'string' },
      'without-cost-export': { type: 'boolean' },
      ms: { type: 'string' },
      deliver: { type: 'string' },
      period: { type: 'string' },
      replace: { type: 'boolean' },
      commitments: { type: 'string' },
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
