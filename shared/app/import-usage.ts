import type { Provider } from '../domain/engine/shapes/model';
import type { ExportFormat } from '../domain/usage/exports/export-formats';
import type { ExportRows } from '../domain/usage/exports/export-rows';
import { createExportUsageCollector, type ExportedUsage } from '../domain/usage/exports/export-usage';
import { skippedRowsText } from '../domain/usage/exports/skipped-rows';
import type { ProviderUsage } from '../domain/usage/imported-usage';
import { isoHour } from '../domain/usage/local-time';
import { createUsageCsvParser } from '../domain/usage/usage-csv';
import { storedUsageSpans, type UsageState } from '../domain/usage/usage-state';
import {
  type ImportRequest,
  PROGRESS_EVERY_ROWS,
  readImportFile,
  refreshImportedPlans,
  requireOrg,
} from './import-files';
import { inImportSessions, type OpenImport } from './import-sessions';
import type { AppContext } from './ports';
import { regionalPrices } from './stored-catalog';

/** What an import stored of one provider. */
export interface ProviderUsageImport {
  readonly provider: Provider;
  readonly rows: number;
  readonly resources: number;
  /** The covered hours: from the first to the last hour (ISO 8601 hour starts) of the file's rows. */
  readonly firstHour: string;
  readonly lastHour: string;
  readonly hours: number;
  /** The provider's plan-input version after the import; plans of earlier versions are stale. */
  readonly usageVersion: number;
  /**
   * False when the stored usage already held the file's values on its hours: nothing was
   * written and the version was not raised (the plans stay current).
   */
  readonly changed: boolean;
}

export interface UsageImportSummary {
  readonly orgId: string;
  readonly rows: number;
  /** In the order aws, azure, gcp. */
  readonly providers: readonly ProviderUsageImport[];
}

/**
 * Imports an org's hourly usage from a CSV file (docs/import.md). The whole file is validated
 * first: a file with any bad row (a future-dated one too) is rejected with a CsvImportError and
 * nothing is stored. Then a session of each provider in the file is opened (refused while another
 * import of it is open, unless taken over), the stored usage of every resource is replaced on the
 * hours the file covers for that provider, and the provider's plans become stale; at the end they
 * are computed again. Run again after a failure half-way, the same file completes the import.
 */
export async function importUsage(ctx: AppContext, request: ImportRequest): Promise<UsageImportSummary> {
  const { orgId } = request;
  await requireOrg(ctx, orgId);
  // The rows are priced as they are read: each batch's regions are loaded before it is read.
  const prices = regionalPrices(ctx.repos.catalog);
  const parser = createUsageCsvParser(prices, ctx.clock.now());
  const parsed = await readImportFile(request, parser, (batch) => prices.load(parser.placesOf(batch)));
  const providers = await storeImportedUsage(ctx, request, parsed.providers);
  return { orgId, rows: parsed.rows, providers };
}

/** What an import of a billing export stored, and what of the file it used and skipped. */
export interface ExportImportSummary extends UsageImportSummary {
  readonly format: ExportFormat;
  readonly usedRows: number;
  readonly skipped: ExportedUsage['skipped'];
  readonly skippedExamples: ExportedUsage['skippedExamples'];
  /** Said when rows were read and none could be used: the file is likely not what it seems. */
  readonly warning: string | null;
}

/** An import of a billing export (CUR 2.0, legacy CUR, FOCUS) opened by a file adapter. */
export interface ExportImportRequest extends Omit<ImportRequest, 'records'> {
  readonly rows: ExportRows;
}

/**
 * Imports an org's hourly usage from a billing export (docs/import.md, Billing exports): every
 * row is read (row group by row group, or batch by batch), instance-hours become usage and every
 * other row is counted by the reason it was skipped. A file that cannot be read fails before
 * anything is stored; then the usage is stored as a usage CSV's is: each provider's covered hours
 * replaced in a session of its own, and the plans computed again.
 */
export async function importUsageExport(
  ctx: AppContext,
  request: ExportImportRequest,
): Promise<ExportImportSummary> {
  const { orgId, rows, onProgress } = request;
  await requireOrg(ctx, orgId);
  const prices = regionalPrices(ctx.repos.catalog);
  const collector = createExportUsageCollector(rows.format, prices, ctx.clock.now());
  let reported = 0;
  for await (const batch of rows.batches) {
    const mapped = collector.mapBatch(batch);
    await prices.load(mapped.places);
    collector.addMapped(mapped);
    if (collector.rows - reported >= PROGRESS_EVERY_ROWS) {
      reported = collector.rows - (collector.rows % PROGRESS_EVERY_ROWS);
      onProgress?.({ stage: 'reading', rows: collector.rows });
    }
  }
  const exported = collector.finish();
  const providers = await storeImportedUsage(ctx, request, exported.providers);
  return {
    orgId,
    format: exported.format,
    rows: exported.rows,
    usedRows: exported.usedRows,
    skipped: exported.skipped,
    skippedExamples: exported.skippedExamples,
    warning: unusedFileWarning(exported),
    providers,
  };
}

/**
 * A file with rows none of which could be used stored nothing: not an error (an export of a month
 * without instances is one), but worth saying, with why (docs/import.md, Billing exports).
 */
export function unusedFileWarning(
  exported: Pick<ExportedUsage, 'rows' | 'usedRows' | 'skipped' | 'skippedExamples'>,
): string | null {
  if (exported.rows === 0 || exported.usedRows > 0) return null;
  const why = skippedRowsText({ counts: exported.skipped, examples: exported.skippedExamples });
  return `none of the file's ${exported.rows} rows could be used: ${why}`;
}

/**
 * Stores a validated file's usage: a session of each provider opened first (refused while another
 * import of it is open, unless taken over), every provider's covered hours replaced, then the
 * plans of the providers it changed computed again.
 */
async function storeImportedUsage(
  ctx: AppContext,
  request: Omit<ImportRequest, 'records'>,
  usage: readonly ProviderUsage[],
): Promise<ProviderUsageImport[]> {
  const { orgId, onProgress } = request;
  const kept = new Map<ProviderUsage, UsageState>();
  for (const providerUsage of usage) {
    const state = await storedUsageIs(ctx, orgId, providerUsage);
    if (state) kept.set(providerUsage, state);
  }
  const changed = usage.filter((providerUsage) => !kept.has(providerUsage));
  const written = await inImportSessions(
    ctx,
    orgId,
    changed.map((provider) => provider.provider),
    request,
    async (sessions) => {
      const stored: ProviderUsageImport[] = [];
      // Every session's lease is renewed while any provider is written: the last provider's
      // session must not run out while the first ones are written.
      const keepAllAlive = async () => {
        await Promise.all(sessions.map((session) => session.keepAlive()));
      };
      for (const [index, providerUsage] of changed.entries()) {
        const session = sessions[index] as OpenImport;
        stored.push(await writeProviderUsage(ctx, orgId, session, providerUsage, keepAllAlive, onProgress));
      }
      return stored;
    },
  );
  const providers = usage.map((providerUsage) => {
    const state = kept.get(providerUsage);
    return state
      ? importOf(providerUsage, state.usageVersion, false)
      : (written.find((imported) => imported.provider === providerUsage.provider) as ProviderUsageImport);
  });
  await refreshImportedPlans(
    ctx,
    request,
    providers.map((imported) => imported.provider),
  );
  return providers;
}

/**
 * The provider's usage state when its stored usage already is `usage` on the hours it covers:
 * whole inputs (no import open or abandoned), spanning those hours, and no stored series that
 * replacing them would change. Then the import writes nothing and raises no version
 * (docs/import.md, Plans become stale); null otherwise. The state is read again after the
 * comparison, so an import that began meanwhile is not missed.
 */
async function storedUsageIs(
  ctx: AppContext,
  orgId: string,
  usage: ProviderUsage,
): Promise<UsageState | null> {
  const state = await ctx.repos.usage.usageState(orgId, usage.provider);
  if (!state || state.importSession || !storedUsageSpans(state, usage.covered)) return null;
  if (await ctx.repos.usage.coveredHoursChange(orgId, usage)) return null;
  const after = await ctx.repos.usage.usageState(orgId, usage.provider);
  return after?.version === state.version ? after : null;
}

/** What an import of `usage` stored (`changed`: false when it was stored already). */
function importOf(usage: ProviderUsage, usageVersion: number, changed: boolean): ProviderUsageImport {
  const { provider, covered } = usage;
  return {
    provider,
    rows: usage.rows,
    resources: usage.series.length,
    firstHour: isoHour(covered.firstHour),
    lastHour: isoHour(covered.lastHour),
    hours: covered.lastHour - covered.firstHour + 1,
    usageVersion,
    changed,
  };
}

/**
 * Replaces the org's stored usage of one provider on the hours `usage` covers and marks the
 * provider's plans stale, in a session of its own: the store step of the local demo.
 */
export async function storeProviderUsage(
  ctx: AppContext,
  orgId: string,
  usage: ProviderUsage,
  onProgress?: ImportRequest['onProgress'],
): Promise<ProviderUsageImport> {
  const state = await storedUsageIs(ctx, orgId, usage);
  if (state) return importOf(usage, state.usageVersion, false);
  return inImportSessions(ctx, orgId, [usage.provider], {}, ([session]) => {
    const open = session as OpenImport;
    return writeProviderUsage(ctx, orgId, open, usage, () => open.keepAlive(), onProgress);
  });
}

/**
 * Writes one provider's usage under its open session, calling `keepAlive` before each group of
 * writes (it renews the import's leases, and throws when one was taken over), then ends the session.
 */
async function writeProviderUsage(
  ctx: AppContext,
  orgId: string,
  session: OpenImport,
  usage: ProviderUsage,
  keepAlive: () => Promise<void>,
  onProgress?: ImportRequest['onProgress'],
): Promise<ProviderUsageImport> {
  const { provider, covered } = usage;
  let reportedMonth: string | undefined;
  await ctx.repos.usage.replaceCoveredHours(orgId, usage, session.usageVersion, async (month) => {
    if (month !== reportedMonth) onProgress?.({ stage: 'writing', provider, month });
    reportedMonth = month;
    await keepAlive();
  });
  await session.finish({ kind: 'usage', covered, resources: usage.series.length });
  return importOf(usage, session.usageVersion, true);
}
