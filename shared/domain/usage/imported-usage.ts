import type { Provider, UsageStream } from '../engine/shapes/model';
import { hoursInMonth, monthStartHour, monthsBetween } from './usage-months';

/**
 * Where a resource's on-demand price came from (docs/import.md, Billing exports): `bill`, the
 * public on-demand rate its billing rows carry; `catalog`, the catalog's price of its description.
 */
export type PriceSource = 'bill' | 'catalog';

/**
 * A resource as usage describes it: a UsageStream without its hourly values, and where its
 * on-demand price came from when an export import recorded it.
 */
export type UsageResource = Omit<UsageStream, 'usage'> & { readonly priceSource?: PriceSource };

/** Hours [firstHour, lastHour], counted from the epoch, both included. */
export interface CoveredHours {
  readonly firstHour: number;
  readonly lastHour: number;
}

/** One resource's usage in an imported file. */
export interface ImportedSeries {
  readonly resource: UsageResource;
  /**
   * Per month (`yyyy-mm`) the resource has rows in: units used in each hour of the month
   * (index 0 = the month's first hour), 0 where the file has no row.
   */
  readonly months: ReadonlyMap<string, Float64Array>;
}

/**
 * A file's usage of one provider. Importing it replaces the org's stored usage of the provider
 * on every covered hour, for every resource: resources the file does not name read zero there.
 */
export interface ProviderUsage {
  readonly provider: Provider;
  /** From the first to the last hour the file has a row for, of any of the provider's resources. */
  readonly covered: CoveredHours;
  readonly rows: number;
  readonly series: readonly ImportedSeries[];
}

/**
 * One resource's values for `month` after an import covering `covered`: the imported values on
 * covered hours (0 when the import has none for the resource), the stored ones elsewhere.
 */
export function replaceCoveredHours(
  month: string,
  covered: CoveredHours,
  stored: Float64Array | undefined,
  imported: Float64Array | undefined,
): Float64Array {
  const first = monthStartHour(month);
  const hours = hoursInMonth(month);
  const values = stored ? Float64Array.from(stored) : new Float64Array(hours);
  const from = Math.max(0, covered.firstHour - first);
  const to = Math.min(hours - 1, covered.lastHour - first);
  for (let hour = from; hour <= to; hour++) values[hour] = imported?.[hour] ?? 0;
  return values;
}

/**
 * Usage already in hourly arrays (generated fleets, the local demo) as an import of the window's
 * hours: every resource's values cut into its months, the whole window covered.
 */
export function providerUsageFromStreams(
  provider: Provider,
  windowStartHour: number,
  streams: readonly UsageStream[],
): ProviderUsage {
  const hours = streams[0]?.usage.length ?? 0;
  const covered = { firstHour: windowStartHour, lastHour: windowStartHour + hours - 1 };
  const months = hours > 0 ? monthsBetween(covered.firstHour, covered.lastHour) : [];
  const series = streams.map(({ usage, ...resource }) => {
    const byMonth = new Map<string, Float64Array>();
    for (const month of months) {
      const values = new Float64Array(hoursInMonth(month));
      const offset = monthStartHour(month) - windowStartHour;
      for (let hour = Math.max(0, -offset); hour < values.length && offset + hour < hours; hour++) {
        values[hour] = usage[offset + hour] ?? 0;
      }
      byMonth.set(month, values);
    }
    return { resource, months: byMonth };
  });
  return { provider, covered, rows: streams.length * hours, series };
}
