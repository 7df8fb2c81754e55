import type { Provider } from '../../engine/shapes/model';
import type { AwsInstanceDescription, SkipReason } from './aws-instance-hours';
import type { AzureVmDescription } from './azure-instance-hours';
import { exportNumber, exportText, type HourReader } from './export-values';

/**
 * The pieces every export format's row mapper is made of (export-rows.ts): a batch's columns by
 * name or by spelling, the hours a line spans, and the instance-hour row they make.
 */

/** What a row mapper reads columns from: a batch of an export (export-rows.ts, ExportBatch). */
interface ColumnSource {
  column(name: string): ArrayLike<unknown> | undefined;
}

/** One line of instance usage: `units` instance-hours spread evenly over `hours` hours from `firstHour`. */
export interface InstanceHourRow {
  readonly provider: Provider;
  readonly resourceId: string;
  readonly accountId: string;
  readonly region: string;
  readonly description: AwsInstanceDescription | AzureVmDescription;
  readonly firstHour: number;
  readonly hours: number;
  readonly units: number;
  /** The row's public on-demand rate per instance-hour; 0 when the row has none. */
  readonly publicRate: number;
}

export type MappedRow = InstanceHourRow | SkipReason;

/** One column of a batch; undefined when the file has none. */
export type Column = ArrayLike<unknown> | undefined;

/** The hours a line spans: [first, first + hours), at least one. */
export function lineHours(
  hourOf: HourReader,
  start: unknown,
  end: unknown,
): { first: number; hours: number } | undefined {
  const first = hourOf(start);
  if (first === undefined) return undefined;
  const last = hourOf(end);
  // The end is exclusive: a line of 13:00 to 14:00 is one hour.
  return { first, hours: last === undefined || last <= first ? 1 : last - first };
}

/** A line's instance-hour row; `hourOf` reads its start and end (the batch mapper's own reader). */
export function instanceRow(
  hourOf: HourReader,
  provider: Provider,
  description: AwsInstanceDescription | AzureVmDescription,
  resourceId: string,
  accountId: string,
  region: string,
  start: unknown,
  end: unknown,
  amount: unknown,
  rate: unknown,
): MappedRow {
  if (resourceId === '') return 'no_resource_id';
  const span = lineHours(hourOf, start, end);
  const units = exportNumber(amount);
  if (!span || !Number.isFinite(units)) return 'invalid';
  // A negative quantity reverses an earlier line: not usage of its own.
  if (units < 0) return 'correction';
  const publicRate = exportNumber(rate);
  return {
    provider,
    resourceId,
    accountId,
    region,
    description,
    firstHour: span.first,
    hours: span.hours,
    units,
    publicRate: Number.isFinite(publicRate) && publicRate > 0 ? publicRate : 0,
  };
}

/** CUR 2.0 product map values: an object (Parquet), JSON text (CSV), or a Map. */
export function productAttribute(product: unknown, key: string): string {
  if (product === null || product === undefined) return '';
  if (product instanceof Map) return exportText(product.get(key));
  if (typeof product === 'object') return exportText((product as Record<string, unknown>)[key]);
  return '';
}

/** The batch's column of each of the format's names, under the same keys (undefined when the file has none). */
export function batchColumns<K extends string>(
  batch: ColumnSource,
  names: Readonly<Record<K, string>>,
): Record<K, Column> {
  const columns = {} as Record<K, Column>;
  for (const key of Object.keys(names) as K[]) columns[key] = batch.column(names[key]);
  return columns;
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The batch's column of each of the format's names, by whichever spelling the file has. */
export function batchColumnsSpelled<K extends string>(
  batch: ColumnSource,
  spellings: Readonly<Record<K, readonly string[]>>,
): Record<K, Column> {
  const columns = {} as Record<K, Column>;
  for (const key of Object.keys(spellings) as K[]) {
    columns[key] = spellings[key].map((name) => batch.column(name)).find((column) => column !== undefined);
  }
  return columns;
}
