import {
  deliverSimulatedAzureFile,
  setSimulatedAzureCommitments,
} from '../../local/simulated-azure-usage-sources';
import {
  awsCalls,
  azureRoles,
  changeSimulatedCloud,
  connectedAwsAccount,
  connectedAzureTenant,
  readSimulatedCloud,
} from '../../local/simulated-cloud';
import { deliverSimulatedAwsFile, setSimulatedAwsCommitments } from '../../local/simulated-usage-sources';
import { ensureOnboarding } from '../../shared/app/onboarding';
import { loadCatalog } from '../../shared/domain/catalog/catalog';
import { createCommitmentCsvParser } from '../../shared/domain/commitments/commitment-csv';
import type { Provider } from '../../shared/domain/engine';
import type { ExistingCommitment } from '../../shared/domain/engine/shapes/model';
import {
  type AdminCommand,
  type CommandInput,
  defineCommand,
  optional,
  required,
  UsageError,
} from './admin-command';
import { openInputFile } from './input-file';
import { listOption } from './list-option';
import { azureCalls, changeAzureRefusals } from './simulated-azure-refusals';

/**
 * `simulate-cloud`: the local simulated cloud (docs/onboarding.md) an onboarding and a usage sync
 * read locally; never a deployed one.
 */

type Options = CommandInput['options'];

const simulatedPermissions = ['exports', 'bucket', 'cost_explorer', 'purchase'] as const;
const granularities = ['HOURLY', 'DAILY', 'MONTHLY'] as const;
const exportFormats = ['parquet', 'csv'] as const;

/** `--deliver FILE --period YYYY-MM [--replace]`: delivers the file into the simulated export. */
async function deliverOption<T>(
  options: Options,
  deliver: (file: string, period: string, replace: boolean) => Promise<T>,
): Promise<T | null> {
  const file = optional(options, 'deliver');
  if (file === undefined) return null;
  const period = required(options, 'period');
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) throw new UsageError('--period must be a month, YYYY-MM');
  await (await openInputFile(file)).close();
  return deliver(file, period, options.replace === true);
}

/** The rows of a commitments CSV (docs/import.md), all of `provider`: what the simulated describe calls answer. */
async function commitmentsFile(
  path: string,
  provider: Provider,
  owner: string,
): Promise<ExistingCommitment[]> {
  const handle = await openInputFile(path);
  const parser = createCommitmentCsvParser(`simulated-${owner}`, loadCatalog());
  try {
    const { readCsvRecords } = await import('../../shared/exports/csv-records');
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

const simulateAws = defineCommand({
  name: 'simulate-cloud aws',
  summary:
    "add or change an AWS account of the simulated cloud. A new account is connected as the onboarding asks (the role, with --org's external id, an hourly Parquet export, delivered, every permission); the other options change it",
  options: [
    { name: 'account', value: '<id>', required: true, help: 'the 12-digit account id' },
    { name: 'org', value: '<org_id>', help: "the org whose external id the account's role expects" },
    { name: 'external-id', value: '<id>', help: 'the external id the role expects' },
    { name: 'without-role', help: 'the account has no role for the service' },
    { name: 'granularity', value: '<granularity>', choices: granularities },
    { name: 'format', value: '<format>', choices: exportFormats },
    { name: 'without-resource-ids', help: 'the export has no resource ids' },
    { name: 'undelivered', help: 'the export has delivered nothing yet' },
    {
      name: 'deny',
      value: '<calls>',
      help: `deny these, a comma list of ${simulatedPermissions.join(', ')}`,
    },
    { name: 'allow', value: '<calls>', help: 'allow these (the same list)' },
    {
      name: 'throttle',
      value: '<calls>',
      help: `throttle these, a comma list of ${awsCalls.join(', ')}; none clears`,
    },
    { name: 'bucket', value: '<bucket>', help: "a new account's export bucket" },
    { name: 'prefix', value: '<prefix>', help: "a new account's export prefix" },
    { name: 'report-name', value: '<name>', help: "a new account's export name" },
    {
      name: 'deliver',
      value: '<file>',
      help: "deliver a CUR 2.0, FOCUS or legacy CUR file into the account's export as AWS does (data file and the period's manifest), for --period <YYYY-MM>",
    },
    { name: 'period', value: '<YYYY-MM>', help: 'the billing period --deliver delivers' },
    { name: 'replace', help: "--deliver replaces the period's files" },
    {
      name: 'commitments',
      value: '<csv>',
      help: 'set the reservations and savings plans the account owns (the commitments CSV of docs/import.md)',
    },
  ],
  needs: ['simulatedCloud', 'store'],
  async run({ simulatedCloud, store }, { options }) {
    const { dir, serviceAccountId } = simulatedCloud;
    const accountId = required(options, 'account');
    if (!/^\d{12}$/.test(accountId)) throw new UsageError('--account must be a 12-digit AWS account id');
    // An unknown --org was refused before the command ran (bin/admin.ts).
    const orgId = optional(options, 'org') ?? null;
    const externalId =
      optional(options, 'external-id') ??
      (orgId ? (await ensureOnboarding(store.ctx, orgId)).externalId : null);
    const deny = listOption(options, 'deny', simulatedPermissions);
    const allow = listOption(options, 'allow', simulatedPermissions);
    const throttle = listOption(options, 'throttle', awsCalls);
    const granularity = optional(options, 'granularity') as (typeof granularities)[number] | undefined;
    const format = optional(options, 'format') as (typeof exportFormats)[number] | undefined;
    const cloud = await changeSimulatedCloud(dir, (current) => {
      let account = current.aws[accountId];
      if (!account) {
        if (externalId === null) throw new UsageError('a new account needs --org <org_id> or --external-id');
        account = connectedAwsAccount({
          serviceAccountId,
          externalId,
          bucket: optional(options, 'bucket') ?? `cost-exports-${accountId}`,
          prefix: optional(options, 'prefix') ?? 'cur',
          reportName: optional(options, 'report-name') ?? 'hourly-cost-and-usage',
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
    const commitments = optional(options, 'commitments');
    if (commitments !== undefined) {
      await setSimulatedAwsCommitments(dir, accountId, await commitmentsFile(commitments, 'aws', accountId));
    }
    const account = (await readSimulatedCloud(dir)).aws[accountId] ?? cloud.aws[accountId];
    return { aws: { account_id: accountId, ...account, ...(delivered ? { delivered } : {}) } };
  },
});

const simulateAzure = defineCommand({
  name: 'simulate-cloud azure',
  summary:
    "add or change an Azure tenant of the simulated cloud (a new one has no consent yet: the consent page grants it; and every role), or deliver into a subscription's cost export and set what it owns",
  options: [
    {
      name: 'tenant',
      value: '<id>',
      help: 'the tenant to add or change (needed unless --deliver or --commitments)',
    },
    { name: 'subscription', value: '<id>', required: true },
    { name: 'consent', help: 'the tenant has consented' },
    { name: 'without-consent', help: 'the tenant has not consented' },
    { name: 'roles', value: '<role,...>', help: `the roles assigned: ${Object.keys(azureRoles).join(', ')}` },
    { name: 'without-cost-export', help: 'the subscription has no cost export' },
    {
      name: 'deliver',
      value: '<file>',
      help: "deliver a FOCUS or actual-cost file into the subscription's cost export as a new run (its folder and manifest.json), for --period <YYYY-MM>",
    },
    { name: 'period', value: '<YYYY-MM>', help: 'the billing month --deliver delivers' },
    { name: 'replace', help: '--deliver: the new run holds this file alone' },
    {
      name: 'commitments',
      value: '<csv>',
      help: 'set the reservations and savings plans the subscription owns (the commitments CSV of docs/import.md)',
    },
    {
      name: 'deny',
      value: '<calls>',
      help: `ARM refuses these with 403 AuthorizationFailed, a comma list of ${azureCalls.join(', ')}`,
    },
    { name: 'allow', value: '<calls>', help: 'ARM allows these again (the same list)' },
    {
      name: 'throttle',
      value: '<calls>',
      help: `ARM answers these 429 with Retry-After, a comma list of ${azureCalls.join(', ')}; none clears`,
    },
  ],
  needs: ['simulatedCloud'],
  async run({ simulatedCloud }, { options }) {
    const { dir } = simulatedCloud;
    const subscriptionId = required(options, 'subscription');
    const tenantId = optional(options, 'tenant');
    const delivering = options.deliver !== undefined || options.commitments !== undefined;
    const refusals = await changeAzureRefusals(dir, subscriptionId, options);
    if (tenantId === undefined && !delivering && !refusals) {
      throw new UsageError(
        '--tenant is required, unless --deliver, --commitments, --deny, --allow or --throttle is given',
      );
    }
    const answer: Record<string, unknown> = refusals
      ? { subscription_id: subscriptionId, purchase: refusals }
      : {};
    if (tenantId !== undefined) {
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
      Object.assign(answer, { tenant_id: tenantId, ...cloud.azure[tenantId] });
    }
    if (delivering) {
      const delivered = await deliverOption(options, (file, period, replace) =>
        deliverSimulatedAzureFile(dir, subscriptionId, file, period, replace),
      );
      const commitments = optional(options, 'commitments');
      if (commitments !== undefined) {
        await setSimulatedAzureCommitments(
          dir,
          subscriptionId,
          await commitmentsFile(commitments, 'azure', subscriptionId),
        );
      }
      Object.assign(answer, { subscription_id: subscriptionId, ...(delivered ? { delivered } : {}) });
    }
    return { azure: answer };
  },
});

export const simulateCloudCommands: readonly AdminCommand[] = [
  simulateAws,
  simulateAzure,
  defineCommand({
    name: 'simulate-cloud show',
    summary: 'the simulated cloud document',
    options: [],
    needs: ['simulatedCloud'],
    run: ({ simulatedCloud }) => readSimulatedCloud(simulatedCloud.dir),
  }),
  defineCommand({
    name: 'simulate-cloud latency',
    summary: 'make every simulated call take n ms',
    options: [{ name: 'ms', value: '<n>', required: true }],
    needs: ['simulatedCloud'],
    async run({ simulatedCloud }, { options }) {
      const ms = Number(required(options, 'ms'));
      if (!Number.isInteger(ms) || ms < 0)
        throw new UsageError('--ms must be a whole number of milliseconds');
      return changeSimulatedCloud(simulatedCloud.dir, (cloud) => {
        cloud.latency_ms = ms;
      });
    },
  }),
];
