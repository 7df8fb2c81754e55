import type { ExistingCommitment, Provider } from '../domain/engine/shapes/model';
import { ConflictError } from '../domain/errors';
import { ExportBoundError } from '../domain/usage/exports/export-bounds';
import type { ExportRows } from '../domain/usage/exports/export-rows';
import { createExportUsageCollector, providerUsagesOf } from '../domain/usage/exports/export-usage';
import {
  addSkippedRows,
  noSkippedRows,
  type SkippedRows,
  skippedRowsText,
} from '../domain/usage/exports/skipped-rows';
import {
  mergeStagedParts,
  refusedStagedPart,
  type StagedPart,
  stagedPartOf,
} from '../domain/usage/exports/staged-usage';
import type { ProviderUsage } from '../domain/usage/imported-usage';
import { isoHour } from '../domain/usage/local-time';
import { monthStartHour } from '../domain/usage/usage-months';
import type { ExportFile, RefusedRead } from '../domain/usage-sources/export-files';
import { type RowGroupSizes, type SyncPart, syncPartId, syncParts } from '../domain/usage-sources/sync-parts';
import type {
  RefusedFile,
  SyncedFile,
  SyncOutcome,
  UsageSyncState,
} from '../domain/usage-sources/sync-state';
import { type ImportProgress, refreshImportedPlans } from './import-files';
import { storeProviderUsage } from './import-usage';
import type { AppContext } from './ports';
import type {
  AwsUsageSources,
  AzureUsageSources,
  ExportSource,
  UsageSourceSession,
} from './ports/usage-sync';
import { regionalPrices } from './stored-catalog';
import { storeOwnedCommitments } from './usage-sync-commitments';

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
  /** How reading is cut into parts; absent: MAX_ROWS_PER_PART. */
  readonly partLimits?: { readonly maxRowsPerPart: number };
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
  /** Rows of the files read that became usage, and those skipped, by reason, with an example of each. */
  readonly usedRows: number;
  readonly skipped: SkippedRows;
  /** Resources with usage in the periods read. */
  readonly resources: number;
  /** The owned commitments the sync wrote (describe answers not already stored another way). */
  readonly commitments: number;
  /** The hours of the periods read (ISO 8601 hour starts); null when none was read. */
  readonly firstHour: string | null;
  readonly lastHour: string | null;
  /** Files over a bound (docs/usage-sync.md, Bounds): their periods were not stored. */
  readonly refused: readonly RefusedFile[];
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

/** Why a file over a bound is refused, as a part and the sync state record it. */
const refusalOf = (error: ExportBoundError): RefusedRead => ({
  code: error.boundCode,
  reason: error.message,
});

/**
 * The parts of the files to read: Parquet files by ranges of their row groups, whatever their
 * size (a small file may hold one huge row group: the footer says). A file whose footer is over a
 * bound, or a refused manifest's period, is one refused part.
 */
export async function planSyncParts(
  ctx: Pick<UsageSyncContext, 'rowGroupSizes' | 'partLimits'>,
  session: Pick<UsageSourceSession, 'openExportFile'>,
  files: readonly ExportFile[],
): Promise<SyncPart[]> {
  const { maxRowsPerPart } = ctx.partLimits ?? { maxRowsPerPart: MAX_ROWS_PER_PART };
  const sizes = new Map<string, RowGroupSizes>();
  const planned: ExportFile[] = [];
  for (const file of files) {
    if (file.refused) {
      planned.push(file);
      continue;
    }
    try {
      sizes.set(file.key, await ctx.rowGroupSizes(session.openExportFile(file)));
      planned.push(file);
    } catch (error) {
      if (error instanceof ExportBoundError) planned.push({ ...file, refused: refusalOf(error) });
      else throw new UsageSyncFailure(file.key, error instanceof Error ? error.message : String(error));
    }
  }
  return syncParts(planned, sizes, maxRowsPerPart);
}

/**
 * Reads one part into its staged hours; rows are read as of `importedAt` (hours after it are
 * future). A part over a bound (export-bounds.ts) is staged refused, holding no hours: its
 * period is not stored, the others are. A part that cannot be read fails naming its file.
 */
export async function readSyncPart(
  ctx: Pick<UsageSyncContext, 'openExport'> & { readonly repos: Pick<UsageSyncContext['repos'], 'catalog'> },
  session: Pick<UsageSourceSession, 'openExportFile'>,
  part: SyncPart,
  importedAt: Date,
): Promise<StagedPart> {
  const { key, billingPeriod } = part;
  if (part.refused) return refusedStagedPart({ partId: syncPartId(part), key, billingPeriod }, part.refused);
  try {
    const opened = await ctx.openExport(session.openExportFile(part), part.rowGroups ?? undefined);
    if (opened.format === 'usage-csv')
      throw new Error('it is not a billing export (CUR 2.0, legacy CUR, FOCUS, Azure actual cost)');
    const rows = opened as ExportRows;
    const prices = regionalPrices(ctx.repos.catalog);
    const collector = createExportUsageCollector(rows.format, prices, importedAt);
    for await (const batch of rows.batches) {
      const mapped = collector.mapBatch(batch);
      await prices.load(mapped.places);
      collector.addMapped(mapped);
    }
    const skipped = collector.skippedRows();
    const examples = Object.fromEntries(
      Object.entries(skipped.examples).map(([reason, example]) => [reason, { ...example, file: key }]),
    );
    return stagedPartOf(
      {
        partId: syncPartId(part),
        key,
        billingPeriod,
        format: rows.format,
        rows: collector.rows,
        usedRows: collector.usedRows,
        skipped: { counts: skipped.counts, examples },
      },
      collector.collected(),
    );
  } catch (error) {
    if (error instanceof ExportBoundError) {
      return refusedStagedPart({ partId: syncPartId(part), key, billingPeriod }, refusalOf(error));
    }
    throw new UsageSyncFailure(part.key, error instanceof Error ? error.message : String(error));
  }
}

export interface PeriodUsage {
  readonly rows: number;
  /** Rows of the period's files that became usage, and those skipped. */
  readonly usedRows: number;
  readonly skipped: SkippedRows;
  /** The period's usage of the provider; null when its files hold none of its instance-hours (its stored usage is kept). */
  readonly usage: ProviderUsage | null;
}

/**
 * Merges staged parts one at a time, per billing period: memory holds each period's merged hours
 * and one part, however many parts there are. A period's usage runs from its first hour to its
 * last row's, which replaces what is stored there. The files of one period must be of one format.
 * Only the provider's own usage counts: another provider's rows in its export are not its to replace.
 * A period with a refused part is not stored at all (a period is stored whole or not), and its
 * other parts' hours are dropped.
 */
export function createPeriodMerger(provider: Provider) {
  const periods = new Map<
    string,
    {
      format: string | null;
      rows: number;
      usedRows: number;
      skipped: SkippedRows;
      merged: ReturnType<typeof mergeStagedParts>;
    }
  >();
  const refused: RefusedFile[] = [];
  const refusedPeriods = new Set<string>();
  return {
    add(part: StagedPart): void {
      if (part.refused) {
        refused.push({ file: part.key, billingPeriod: part.billingPeriod, ...part.refused });
        refusedPeriods.add(part.billingPeriod);
        periods.delete(part.billingPeriod);
        return;
      }
      if (refusedPeriods.has(part.billingPeriod)) return;
      const period = periods.get(part.billingPeriod);
      if (period && period.format !== part.format) {
        throw new UsageSyncFailure(
          part.key,
          `it is ${part.format}, other files of ${part.billingPeriod} are ${period.format}`,
        );
      }
      const into = period ?? {
        format: part.format,
        rows: 0,
        usedRows: 0,
        skipped: noSkippedRows(),
        merged: new Map(),
      };
      mergeStagedParts([part], into.merged);
      into.rows += part.rows;
      // Parts staged before skipped rows were kept count their rows as used.
      into.usedRows += part.usedRows ?? part.rows;
      if (part.skipped) into.skipped = addSkippedRows(into.skipped, part.skipped);
      periods.set(part.billingPeriod, into);
    },
    /** Each period's usage, in period order; none of a refused period. */
    periods(): PeriodUsage[] {
      return [...periods.keys()].sort().map((period) => {
        const { rows, usedRows, skipped, merged } = periods.get(period) as NonNullable<
          ReturnType<typeof periods.get>
        >;
        const own = providerUsagesOf(merged).find((usage) => usage.provider === provider);
        if (!own) return { rows, usedRows, skipped, usage: null };
        const firstHour = Math.min(monthStartHour(period), own.covered.firstHour);
        return {
          rows,
          usedRows,
          skipped,
          usage: { ...own, covered: { firstHour, lastHour: own.covered.lastHour } },
        };
      });
    },
    /** The files refused, in the order their parts came. */
    refused(): RefusedFile[] {
      return [...refused];
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
  /** Files over a bound: their periods are not stored, and stay as the last sync stored them. */
  readonly refused: readonly RefusedFile[];
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
  const usedRows = periods.reduce((sum, period) => sum + period.usedRows, 0);
  const skipped = periods.reduce(
    (sum, period) => addSkippedRows(sum, period.skipped),
    noSkippedRows() as SkippedRows,
  );
  const now = ctx.clock.now().toISOString();
  await ctx.repos.usageSyncStates.put(orgId, provider, {
    files: storedFiles(read.current, read.refused, before),
    commitmentIds,
    lastSyncAt: now,
    lastSuccessAt: now,
    rows,
    usedRows,
    skipped: skippedRowsText(skipped),
    outcome: read.refused.length ? { status: 'succeeded', refused: read.refused } : { status: 'succeeded' },
  });
  const stored = periods.flatMap((period) => (period.usage ? [period.usage] : []));
  return {
    provider,
    filesRead: read.filesRead,
    filesSkipped: read.filesSkipped,
    rows,
    usedRows,
    skipped,
    resources: new Set(stored.flatMap((usage) => usage.series.map((series) => series.resource.resourceId)))
      .size,
    commitments: commitmentIds.length,
    firstHour: stored.length ? isoHour(Math.min(...stored.map((usage) => usage.covered.firstHour))) : null,
    lastHour: stored.length ? isoHour(Math.max(...stored.map((usage) => usage.covered.lastHour))) : null,
    refused: read.refused,
  };
}

/**
 * The files the sync state says are stored: the current ones, but for a refused period those the
 * last sync stored, so that the next sync reads the period again.
 */
function storedFiles(
  current: readonly ExportFile[],
  refused: readonly RefusedFile[],
  before: UsageSyncState | null,
): SyncedFile[] {
  const refusedPeriods = new Set(refused.map((file) => file.billingPeriod));
  return [
    ...current.filter((file) => !refusedPeriods.has(file.billingPeriod)),
    ...(before?.files ?? []).filter((file) => refusedPeriods.has(file.billingPeriod)),
  ]
    .map(({ key, etag, billingPeriod }) => ({ key, etag, billingPeriod }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
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
    usedRows: before?.usedRows ?? before?.rows ?? 0,
    skipped: before?.skipped ?? '',
    outcome,
  });
}
