import { loadCatalog } from '../domain/catalog/catalog';
import type { ExistingCommitment, Provider } from '../domain/engine/model';
import { ConflictError } from '../domain/errors';
import type { ExportRows } from '../domain/usage/exports/export-rows';
import { createExportUsageCollector, providerUsagesOf } from '../domain/usage/exports/export-usage';
import { mergeStagedParts, type StagedPart, stagedPartOf } from '../domain/usage/exports/staged-usage';
import type { ProviderUsage } from '../domain/usage/imported-usage';
import { isoHour } from '../domain/usage/local-time';
import { monthStartHour } from '../domain/usage/usage-months';
import { awsOwnedCommitmentIds } from '../domain/usage-sources/aws-owned-commitments';
import { azureOwnedCommitmentIds } from '../domain/usage-sources/azure-owned-commitments';
import type { ExportFile } from '../domain/usage-sources/export-files';
import { type RowGroupSizes, type SyncPart, syncPartId, syncParts } from '../domain/usage-sources/sync-parts';
import {
  ownedCommitmentsToWrite,
  type SyncOutcome,
  type UsageSyncState,
} from '../domain/usage-sources/sync-state';
import { type ImportProgress, refreshImportedPlans } from './import-files';
import { inImportSessions } from './import-sessions';
import { storeProviderUsage } from './import-usage';
import type { AppContext } from './ports';
import type {
  AwsUsageSources,
  AzureUsageSources,
  ExportSource,
  UsageSourceSession,
} from './ports/usage-sync';

/**
 * The steps of a usage sync (docs/usage-sync.md), shared by `admin sync`, which runs them in one
 * process (usage-sync.ts), and the deployed sync, which runs each in an invocation of its own
 * (usage-sync-run.ts): plan the parts, read each part into staged hours, merge a period's parts,
 * and store everything once all is read.
 */

/** Opens an export file, or a range of a Parquet file's row groups, as the import reads it. */
export type ExportOpener = (
  source: ExportSource,
  rowGroups?: { readonly first: number; readonly end: number },
) => Promise<ExportRows | { readonly format: 'usage-csv' }>;

export interface UsageSyncContext extends AppContext {
  readonly awsSources: AwsUsageSources;
  readonly azureSources: AzureUsageSources;
  readonly openExport: ExportOpener;
  /** The rows of each row group of a Parquet export (its footer); null for a CSV export. */
  readonly rowGroupSizes: (source: ExportSource) => Promise<RowGroupSizes>;
  /** How reading is cut into parts; absent: MAX_ROWS_PER_PART and SPLIT_FILES_FROM_BYTES. */
  readonly partLimits?: { readonly maxRowsPerPart: number; readonly splitFilesFromBytes: number };
}

export type SyncProgress =
  | ImportProgress
  | { readonly stage: 'listed'; readonly provider: Provider; readonly read: number; readonly skipped: number }
  | { readonly stage: 'file'; readonly provider: Provider; readonly key: string }
  | { readonly stage: 'commitments'; readonly provider: Provider; readonly commitments: number };

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

/** An error as the sync state records it. */
export function syncFailureOf(error: unknown): UsageSyncFailure {
  return error instanceof UsageSyncFailure
    ? error
    : new UsageSyncFailure(null, error instanceof Error ? error.message : String(error));
}

/**
 * Most rows one part reads: a Parquet file with more is read by ranges of its row groups, each in
 * an invocation of its own, so that no invocation nears Lambda's 15 minutes (docs/deploy.md).
 */
export const MAX_ROWS_PER_PART = 5_000_000;

/** Files smaller than this are read whole without looking at their footer (no extra reads). */
export const SPLIT_FILES_FROM_BYTES = 64 * 1024 * 1024;

/** The parts of the files to read: large Parquet files by ranges of their row groups. */
export async function planSyncParts(
  ctx: UsageSyncContext,
  session: UsageSourceSession,
  files: readonly ExportFile[],
): Promise<SyncPart[]> {
  const { maxRowsPerPart, splitFilesFromBytes } = ctx.partLimits ?? {
    maxRowsPerPart: MAX_ROWS_PER_PART,
    splitFilesFromBytes: SPLIT_FILES_FROM_BYTES,
  };
  const sizes = new Map<string, RowGroupSizes>();
  for (const file of files) {
    if (file.size < splitFilesFromBytes) continue;
    try {
      sizes.set(file.key, await ctx.rowGroupSizes(session.openExportFile(file)));
    } catch (error) {
      throw new UsageSyncFailure(file.key, error instanceof Error ? error.message : String(error));
    }
  }
  return syncParts(files, sizes, maxRowsPerPart);
}

/**
 * Reads one part into its staged hours; rows are read as of `importedAt` (hours after it are
 * future). A part that cannot be read fails naming its file.
 */
export async function readSyncPart(
  ctx: UsageSyncContext,
  session: UsageSourceSession,
  part: SyncPart,
  importedAt: Date,
): Promise<StagedPart> {
  try {
    const opened = await ctx.openExport(session.openExportFile(part), part.rowGroups ?? undefined);
    if (opened.format === 'usage-csv')
      throw new Error('it is not a billing export (CUR 2.0, legacy CUR, FOCUS, Azure actual cost)');
    const rows = opened as ExportRows;
    const collector = createExportUsageCollector(rows.format, loadCatalog(), importedAt);
    for await (const batch of rows.batches) collector.addBatch(batch);
    const { key, billingPeriod } = part;
    return stagedPartOf(
      { partId: syncPartId(part), key, billingPeriod, format: rows.format, rows: collector.rows },
      collector.collected(),
    );
  } catch (error) {
    throw new UsageSyncFailure(part.key, error instanceof Error ? error.message : String(error));
  }
}

export interface PeriodUsage {
  readonly rows: number;
  /** The period's usage of the provider; null when its files hold none of its instance-hours (its stored usage is kept). */
  readonly usage: ProviderUsage | null;
}

/**
 * Merges staged parts one at a time, per billing period: memory holds each period's merged hours
 * and one part, however many parts there are. A period's usage runs from its first hour to its
 * last row's, which replaces what is stored there. The files of one period must be of one format.
 * Only the provider's own usage counts: another provider's rows in its export are not its to replace.
 */
export function createPeriodMerger(provider: Provider) {
  const periods = new Map<
    string,
    { format: string; rows: number; merged: ReturnType<typeof mergeStagedParts> }
  >();
  return {
    add(part: StagedPart): void {
      const period = periods.get(part.billingPeriod);
      if (period && period.format !== part.format) {
        throw new UsageSyncFailure(
          part.key,
          `it is ${part.format}, other files of ${part.billingPeriod} are ${period.format}`,
        );
      }
      const into = period ?? { format: part.format, rows: 0, merged: new Map() };
      mergeStagedParts([part], into.merged);
      into.rows += part.rows;
      periods.set(part.billingPeriod, into);
    },
    /** Each period's usage, in period order. */
    periods(): PeriodUsage[] {
      return [...periods.keys()].sort().map((period) => {
        const { rows, merged } = periods.get(period) as {
          rows: number;
          merged: ReturnType<typeof mergeStagedParts>;
        };
        const own = providerUsagesOf(merged).find((usage) => usage.provider === provider);
        if (!own) return { rows, usage: null };
        const firstHour = Math.min(monthStartHour(period), own.covered.firstHour);
        return { rows, usage: { ...own, covered: { firstHour, lastHour: own.covered.lastHour } } };
      });
    },
  };
}

/** Everything a sync read, ready to store. */
export interface SyncRead {
  readonly orgId: string;
  readonly provider: Provider;
  /** The AWS account or Azure subscription read: it owns the commitments read. */
  readonly ownerId: string;
  readonly current: readonly ExportFile[];
  readonly filesRead: number;
  readonly filesSkipped: number;
  readonly periods: readonly PeriodUsage[];
  readonly owned: readonly ExistingCommitment[];
  readonly onProgress?: (progress: SyncProgress) => void;
}

/**
 * Stores what a sync read, once all of it is read: each period's usage in its own import session,
 * the owned commitments, the plans computed again, then the sync state.
 */
export async function storeSyncRead(
  ctx: UsageSyncContext,
  read: SyncRead,
  before: UsageSyncState | null,
): Promise<ProviderSyncSummary> {
  const { orgId, provider, periods, onProgress } = read;
  for (const { usage } of periods) if (usage) await storeProviderUsage(ctx, orgId, usage, onProgress);
  const commitmentIds = await storeOwnedCommitments(ctx, orgId, provider, read.ownerId, read.owned, before);
  onProgress?.({ stage: 'commitments', provider, commitments: commitmentIds.length });
  await refreshImportedPlans(ctx, { orgId, onProgress }, [provider]);
  const rows = periods.reduce((sum, period) => sum + period.rows, 0);
  const now = ctx.clock.now().toISOString();
  await ctx.repos.usageSyncStates.put(orgId, provider, {
    files: read.current.map(({ key, etag, billingPeriod }) => ({ key, etag, billingPeriod })),
    commitmentIds,
    lastSyncAt: now,
    lastSuccessAt: now,
    rows,
    outcome: { status: 'succeeded' },
  });
  const stored = periods.flatMap((period) => (period.usage ? [period.usage] : []));
  return {
    provider,
    filesRead: read.filesRead,
    filesSkipped: read.filesSkipped,
    rows,
    resources: new Set(stored.flatMap((usage) => usage.series.map((series) => series.resource.resourceId)))
      .size,
    commitments: commitmentIds.length,
    firstHour: stored.length ? isoHour(Math.min(...stored.map((usage) => usage.covered.firstHour))) : null,
    lastHour: stored.length ? isoHour(Math.max(...stored.map((usage) => usage.covered.lastHour))) : null,
  };
}

/** Only the outcome and time change: the files stored before stay those the next sync compares with. */
export async function recordSyncOutcome(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  before: UsageSyncState | null,
  outcome: SyncOutcome,
): Promise<void> {
  await ctx.repos.usageSyncStates.put(orgId, provider, {
    files: before?.files ?? [],
    commitmentIds: before?.commitmentIds ?? [],
    lastSyncAt: ctx.clock.now().toISOString(),
    lastSuccessAt: before?.lastSuccessAt ?? null,
    rows: before?.rows ?? 0,
    outcome,
  });
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
  provider: Provider,
  ownerId: string,
  owned: readonly ExistingCommitment[],
  before: UsageSyncState | null,
): Promise<string[]> {
  const previous = new Set(before?.commitmentIds ?? []);
  const storedIds = new Set(
    (await ctx.repos.commitments.listCommitments(orgId, provider)).map((commitment) => commitment.id),
  );
  const purchasedIds = new Set(
    (await ctx.repos.purchases.listByOrg(orgId))
      .filter((purchase) => purchase.provider === provider && purchase.status === 'completed')
      .flatMap((purchase) =>
        purchase.providerIds.flatMap((id) => ownedCommitmentIdsOf(provider, ownerId, id)),
      ),
  );
  const written = ownedCommitmentsToWrite(owned, { storedIds, previousSyncIds: previous, purchasedIds });
  const writtenIds = new Set(written.map((commitment) => commitment.id));
  await inImportSessions(ctx, orgId, [provider], {}, async ([session]) => {
    for (const commitment of written) await ctx.repos.commitments.putCommitment(orgId, commitment);
    await ctx.repos.commitments.deleteCommitments(
      orgId,
      provider,
      [...previous].filter((id) => !writtenIds.has(id)),
    );
    await session?.finish({ kind: 'commitments', commitments: written.length });
  });
  return [...writtenIds];
}

/**
 * The owned-commitment ids a completed purchase's provider id stands for: the ids the describe
 * answers (AWS) or the ARM reads (Azure: a purchase records its order and the reservation or
 * savings plan ids ARM answered) would give it, so the sync does not count it twice.
 */
function ownedCommitmentIdsOf(provider: Provider, ownerId: string, providerId: string): string[] {
  if (provider === 'aws') return awsOwnedCommitmentIds(ownerId, providerId);
  return provider === 'azure' ? azureOwnedCommitmentIds(providerId) : [];
}
