import type { Provider } from '../../engine/shapes/model';
import type { RefusedRead } from '../../usage-sources/export-files';
import type { ExportFormat } from './export-formats';
import { type ProviderInFile, type SeriesInFile, seriesKey } from './export-usage';
import type { SkippedRows } from './skipped-rows';

/**
 * One part of a usage sync as it is staged between invocations (docs/usage-sync.md, Deployed): the
 * hours a file, or a range of its row groups, holds, collected but not yet named or stored. The
 * parts of a billing period are merged once all are read: lines of the same resource and hour add
 * up whichever part holds them, so a period read in parts is the period read whole. Plain JSON.
 */
export interface StagedPart {
  /** The file key, ETag and range it was read from (sync-parts.ts). */
  readonly partId: string;
  readonly key: string;
  readonly billingPeriod: string;
  /** null: the part was refused (`refused`), nothing of it read. */
  readonly format: ExportFormat | null;
  /** Every row of the part (used or skipped). */
  readonly rows: number;
  /**
   * Rows of the part that became usage, and those skipped, by reason, with an example of each (in
   * the part's file). Absent in a part staged by an earlier release: its rows count as used.
   */
  readonly usedRows?: number;
  readonly skipped?: SkippedRows;
  readonly providers: readonly StagedProvider[];
  /** Set when the part's file is over a bound (export-bounds.ts): its billing period is refused. */
  readonly refused?: RefusedRead;
}

export interface StagedProvider {
  readonly provider: Provider;
  readonly firstHour: number;
  readonly lastHour: number;
  readonly rows: number;
  readonly series: readonly StagedSeries[];
}

export interface StagedSeries {
  readonly resourceId: string;
  readonly row: SeriesInFile['row'];
  readonly ondemandPrice: number;
  /** Absent in a part staged by an earlier release, which did not record it. */
  readonly priceSource?: SeriesInFile['priceSource'];
  /** Units per hour of each month (`yyyy-mm`), index 0 = the month's first hour. */
  readonly months: Readonly<Record<string, readonly number[]>>;
}

/** A part whose file is refused: it holds no hours, and its period is not stored. */
export function refusedStagedPart(
  part: Pick<StagedPart, 'partId' | 'key' | 'billingPeriod'>,
  refused: RefusedRead,
): StagedPart {
  return { ...part, format: null, rows: 0, providers: [], refused };
}

/** The collector's hours (export-usage.ts `collected()`) as a staged part. */
export function stagedPartOf(
  part: Pick<StagedPart, 'partId' | 'key' | 'billingPeriod' | 'format' | 'rows' | 'usedRows' | 'skipped'>,
  collected: ReadonlyMap<Provider, ProviderInFile>,
): StagedPart {
  return {
    ...part,
    providers: [...collected].map(([provider, inFile]) => ({
      provider,
      firstHour: inFile.firstHour,
      lastHour: inFile.lastHour,
      rows: inFile.rows,
      series: [...inFile.series.values()].map(({ resourceId, row, ondemandPrice, priceSource, months }) => ({
        resourceId,
        row: {
          provider: row.provider,
          accountId: row.accountId,
          region: row.region,
          description: row.description,
        },
        ondemandPrice,
        priceSource,
        months: Object.fromEntries([...months].map(([month, values]) => [month, Array.from(values)])),
      })),
    })),
  };
}

/**
 * The parts' hours merged, as the collector would hold them had it read every part in the order
 * given: hours of the same series add up, a series keeps the on-demand price of its first part,
 * and the covered hours span every part's.
 */
export function mergeStagedParts(
  parts: readonly StagedPart[],
  merged = new Map<Provider, ProviderInFile>(),
): Map<Provider, ProviderInFile> {
  for (const part of parts) {
    for (const staged of part.providers) {
      let inFile = merged.get(staged.provider);
      if (!inFile) {
        inFile = { series: new Map(), firstHour: staged.firstHour, lastHour: staged.lastHour, rows: 0 };
        merged.set(staged.provider, inFile);
      }
      inFile.firstHour = Math.min(inFile.firstHour, staged.firstHour);
      inFile.lastHour = Math.max(inFile.lastHour, staged.lastHour);
      inFile.rows += staged.rows;
      for (const series of staged.series) addSeries(inFile, series);
    }
  }
  return merged;
}

function addSeries(inFile: ProviderInFile, staged: StagedSeries): void {
  const key = seriesKey(staged.resourceId, staged.row.description);
  let series = inFile.series.get(key);
  if (!series) {
    series = {
      resourceId: staged.resourceId,
      row: staged.row,
      ondemandPrice: staged.ondemandPrice,
      ...(staged.priceSource ? { priceSource: staged.priceSource } : {}),
      months: new Map(),
    };
    inFile.series.set(key, series);
  }
  for (const [month, values] of Object.entries(staged.months)) {
    let sum = series.months.get(month);
    if (!sum) {
      sum = new Float64Array(values.length);
      series.months.set(month, sum);
    }
    for (let hour = 0; hour < values.length; hour++)
      sum[hour] = (sum[hour] as number) + (values[hour] as number);
  }
}
