import { loadCatalog } from '../domain/catalog/catalog';
import type { ExistingCommitment, Provider } from '../domain/engine/model';
import { ConflictError, ValidationError } from '../domain/errors';
import { onboardingRoleArn, verifiedExportSource } from '../domain/onboarding/aws-checks';
import type { OnboardingRecord } from '../domain/onboarding/onboarding-record';
import type { ExportRows } from '../domain/usage/exports/export-rows';
import { createExportUsageCollector } from '../domain/usage/exports/export-usage';
import type { ProviderUsage } from '../domain/usage/imported-usage';
import { isoHour } from '../domain/usage/local-time';
import { monthStartHour } from '../domain/usage/usage-months';
import { awsOwnedCommitmentIds } from '../domain/usage-sources/aws-owned-commitments';
import type { ExportFile } from '../domain/usage-sources/export-files';
import {
  ownedCommitmentsToWrite,
  type SyncOutcome,
  syncWork,
  type UsageSyncState,
} from '../domain/usage-sources/sync-state';
import { type ImportProgress, refreshImportedPlans, requireOrg } from './import-files';
import { inImportSessions } from './import-sessions';
import { storeProviderUsage } from './import-usage';
import type { AppContext } from './ports';
import type { AwsUsageAccount, AwsUsageSources, ExportSource, UsageSourceSession } from './ports/usage-sync';

/**
 * The usage sync (docs/usage-sync.md): reads a connected account's export and owned commitments
 * into the org's plan inputs. Only billing periods with a new or changed file are read, each
 * whole; everything is read before anything is stored, so a file that cannot be read fails the
 * sync with nothing of it stored, and the next sync reads it again.
 */

/** Opens an export file as the import reads it (shared/exports/read-export.ts). */
export type ExportOpener = (source: ExportSource) => Promise<ExportRows | { readonly format: 'usage-csv' }>;

export interface UsageSyncContext extends AppContext {
  readonly awsSources: AwsUsageSources;
  readonly openExport: ExportOpener;
}

export type SyncProgress =
  | ImportProgress
  | { readonly stage: 'listed'; readonly provider: Provider; readonly read: number; readonly skipped: number }
  | { readonly stage: 'file'; readonly provider: Provider; readonly key: string }
  | { readonly stage: 'commitments'; readonly provider: Provider; readonly commitments: number };

export interface UsageSyncRequest {
  readonly orgId: string;
  readonly provider: Provider;
  readonly onProgress?: (progress: SyncProgress) => void;
}

/** What one sync of one provider read and stored. */
export interface ProviderSyncSummary {
  readonly provider: Provider;
  readonly filesRead: number;
  readonly filesSkipped: number;
  /** Rows of the files read (every row, used or skipped). */
  readonly rows: number;
  /** Resources with usage in the periods read. */
  readonly resources: number;
  /** The owned commitments the sync wrote (describe answers not already stored another way). */
  readonly commitments: number;
  /** The hours of the periods read (ISO 8601 hour starts); null when none was read. */
  readonly firstHour: string | null;
  readonly lastHour: string | null;
}

/** A sync that failed: `file` is the export file it could not read (null: another step failed). */
export class UsageSyncFailure extends ConflictError {
  constructor(
    readonly file: string | null,
    readonly reason: string,
  ) {
    super(file ? `usage sync failed reading ${file}: ${reason}` : `usage sync failed: ${reason}`);
  }
}

/** The AWS account the org's onboarding verified, as the sync reaches it. */
export function awsUsageAccountOf(record: OnboardingRecord | null): AwsUsageAccount {
  const aws = record?.aws;
  if (!record || !aws) throw new ValidationError('the organization has no AWS account connected');
  const source = verifiedExportSource(aws.verification?.items ?? []);
  if (!source) {
    throw new ValidationError(
      `AWS account ${aws.accountId}: its last verification found no Cost and Usage export; verify it again`,
    );
  }
  if (!aws.existingCur) {
    throw new ValidationError(
      `AWS account ${aws.accountId}: name the existing export (existing_cur) and verify it again`,
    );
  }
  const { bucket, prefix, region, reportName } = aws.existingCur;
  return {
    accountId: aws.accountId,
    roleArn: onboardingRoleArn(aws.accountId),
    externalId: record.externalId,
    export: { source, name: reportName, bucket, prefix, region },
  };
}

/** Runs one sync of the org's provider now (docs/usage-sync.md); AWS only. */
export async function syncUsage(
  ctx: UsageSyncContext,
  request: UsageSyncRequest,
): Promise<ProviderSyncSummary> {
  const { orgId, provider } = request;
  if (provider !== 'aws') throw new ValidationError(`usage sync of ${provider} is not built yet: only aws`);
  await requireOrg(ctx, orgId);
  const account = awsUsageAccountOf(await ctx.repos.onboarding.get(orgId));
  const before = await ctx.repos.usageSyncStates.get(orgId, provider);
  try {
    return await syncAccount(ctx, request, account, before);
  } catch (error) {
    const failure =
      error instanceof UsageSyncFailure
        ? error
        : new UsageSyncFailure(null, error instanceof Error ? error.message : String(error));
    await recordOutcome(ctx, request, before, {
      status: 'failed',
      file: failure.file,
      reason: failure.reason,
    });
    throw failure;
  }
}

/** Only the outcome and time change: the files stored before stay those the next sync compares with. */
async function recordOutcome(
  ctx: UsageSyncContext,
  request: UsageSyncRequest,
  before: UsageSyncState | null,
  outcome: SyncOutcome,
): Promise<void> {
  await ctx.repos.usageSyncStates.put(request.orgId, request.provider, {
    files: before?.files ?? [],
    commitmentIds: before?.commitmentIds ?? [],
    lastSyncAt: ctx.clock.now().toISOString(),
    lastSuccessAt: before?.lastSuccessAt ?? null,
    rows: before?.rows ?? 0,
    outcome,
  });
}

async function syncAccount(
  ctx: UsageSyncContext,
  request: UsageSyncRequest,
  account: AwsUsageAccount,
  before: UsageSyncState | null,
): Promise<ProviderSyncSummary> {
  const { orgId, provider, onProgress } = request;
  const session = await ctx.awsSources.connect(account);
  const current = await session.listExportFiles();
  const work = syncWork(current, before);
  onProgress?.({ stage: 'listed', provider, read: work.read.length, skipped: work.skipped.length });
  const periods: PeriodUsage[] = [];
  for (const period of work.periods) {
    periods.push(
      await readPeriod(
        ctx,
        session,
        period,
        work.read.filter((file) => file.billingPeriod === period),
        onProgress,
      ),
    );
  }
  const owned = await session.ownedCommitments();
  // Everything is read: from here on the sync stores.
  for (const { usage } of periods) if (usage) await storeProviderUsage(ctx, orgId, usage, onProgress);
  const commitmentIds = await storeOwnedCommitments(ctx, orgId, account.accountId, owned, before);
  onProgress?.({ stage: 'commitments', provider, commitments: commitmentIds.length });
  await refreshImportedPlans(ctx, { orgId, onProgress }, [provider]);
  const rows = periods.reduce((sum, period) => sum + period.rows, 0);
  const now = ctx.clock.now().toISOString();
  await ctx.repos.usageSyncStates.put(orgId, provider, {
    files: current.map(({ key, etag, billingPeriod }) => ({ key, etag, billingPeriod })),
    commitmentIds,
    lastSyncAt: now,
    lastSuccessAt: now,
    rows,
    outcome: { status: 'succeeded' },
  });
  const stored = periods.flatMap((period) => (period.usage ? [period.usage] : []));
  return {
    provider,
    filesRead: work.read.length,
    filesSkipped: work.skipped.length,
    rows,
    resources: new Set(stored.flatMap((usage) => usage.series.map((series) => series.resource.resourceId)))
      .size,
    commitments: commitmentIds.length,
    firstHour: stored.length ? isoHour(Math.min(...stored.map((usage) => usage.covered.firstHour))) : null,
    lastHour: stored.length ? isoHour(Math.max(...stored.map((usage) => usage.covered.lastHour))) : null,
  };
}

interface PeriodUsage {
  readonly rows: number;
  /** The period's AWS usage; null when its files hold no instance-hours (its stored usage is kept). */
  readonly usage: ProviderUsage | null;
}

/**
 * Reads every current file of one billing period into one collection: the period's usage from
 * its first hour to its last row's, which replaces what is stored there.
 */
async function readPeriod(
  ctx: UsageSyncContext,
  session: UsageSourceSession,
  period: string,
  files: readonly ExportFile[],
  onProgress: UsageSyncRequest['onProgress'],
): Promise<PeriodUsage> {
  let collector: ReturnType<typeof createExportUsageCollector> | undefined;
  let format: string | undefined;
  for (const file of files) {
    onProgress?.({ stage: 'file', provider: 'aws', key: file.key });
    try {
      const rows = await ctx.openExport(session.openExportFile(file));
      if (rows.format === 'usage-csv')
        throw new Error('it is not a billing export (CUR 2.0, legacy CUR, FOCUS)');
      const read = rows as ExportRows;
      if (format !== undefined && read.format !== format) {
        throw new Error(`it is ${read.format}, other files of ${period} are ${format}`);
      }
      format = read.format;
      collector ??= createExportUsageCollector(read.format, loadCatalog(), ctx.clock.now());
      for await (const batch of read.batches) collector.addBatch(batch);
    } catch (error) {
      throw new UsageSyncFailure(file.key, error instanceof Error ? error.message : String(error));
    }
  }
  if (!collector) return { rows: 0, usage: null };
  const exported = collector.finish();
  const aws = exported.providers.find((usage) => usage.provider === 'aws');
  if (!aws) return { rows: exported.rows, usage: null };
  const firstHour = Math.min(monthStartHour(period), aws.covered.firstHour);
  return { rows: exported.rows, usage: { ...aws, covered: { firstHour, lastHour: aws.covered.lastHour } } };
}

/**
 * Makes the account's owned commitments the org's provider-sourced ones: the previous sync's are
 * replaced; commitments stored another way (an imported commitments file, the service's own
 * purchases) are kept, and a describe answer that is one of them is not written again (a
 * completed purchase is matched by the provider ids it recorded). Answers the ids written.
 */
async function storeOwnedCommitments(
  ctx: UsageSyncContext,
  orgId: string,
  accountId: string,
  owned: readonly ExistingCommitment[],
  before: UsageSyncState | null,
): Promise<string[]> {
  const previous = new Set(before?.commitmentIds ?? []);
  const storedIds = new Set(
    (await ctx.repos.commitments.listCommitments(orgId, 'aws')).map((commitment) => commitment.id),
  );
  const purchasedIds = new Set(
    (await ctx.repos.purchases.listByOrg(orgId))
      .filter((purchase) => purchase.provider === 'aws' && purchase.status === 'completed')
      .flatMap((purchase) => purchase.providerIds.flatMap((id) => awsOwnedCommitmentIds(accountId, id))),
  );
  const written = ownedCommitmentsToWrite(owned, { storedIds, previousSyncIds: previous, purchasedIds });
  const writtenIds = new Set(written.map((commitment) => commitment.id));
  await inImportSessions(ctx, orgId, ['aws'], {}, async ([session]) => {
    for (const commitment of written) await ctx.repos.commitments.putCommitment(orgId, commitment);
    await ctx.repos.commitments.deleteCommitments(
      orgId,
      'aws',
      [...previous].filter((id) => !writtenIds.has(id)),
    );
    await session?.finish({ kind: 'commitments', commitments: written.length });
  });
  return [...writtenIds];
}
