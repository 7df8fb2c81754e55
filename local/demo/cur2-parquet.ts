/**
 * CUR 2.0 (AWS Data Exports, table `COST_AND_USAGE_REPORT`) line items written as the export
 * writes them (docs/import.md, Billing exports): the columns the readers name, and `product` as a
 * Parquet MAP<string, string>. The demo seed writes its fleet's export with it, and the tests and
 * `npm run bench:ingest` their files.
 *
 * hyparquet-writer is a devDependency: `npm ci` installs it and the local runtime (which includes
 * this file) uses it, but nothing under `functions/` imports it, so no Lambda bundle carries it.
 */
import { fileWriter, ParquetWriter } from 'hyparquet-writer';

const HOUR_MS = 3_600_000;

/** One billing line, in no format yet (an hourly line: it ends an hour after `start`). */
export interface BillingLineItem {
  /** `line_item_line_item_type`: `Usage`, `DiscountedUsage`, `SavingsPlanCoveredUsage`, `Tax`... */
  readonly type: string;
  /** The hour's start, epoch milliseconds. */
  readonly start: number;
  readonly productCode: string;
  readonly usageType: string;
  readonly operation: string;
  readonly resourceId: string;
  readonly accountId: string;
  readonly region: string;
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly databaseEngine: string;
  readonly amount: number;
  /** The public on-demand rate of a unit. */
  readonly rate: number;
  readonly unit: string;
  readonly description: string;
}

/** The `product` map's attributes the line's product has. */
export function productMap(item: BillingLineItem): Record<string, string> {
  const map: Record<string, string> = { region: item.region };
  if (item.operatingSystem) map.operating_system = item.operatingSystem;
  if (item.productCode === 'AmazonEC2' && item.instanceType) map.tenancy = 'Shared';
  if (item.databaseEngine) {
    map.database_engine = item.databaseEngine;
    map.deployment_option = 'Single-AZ';
  }
  return map;
}

type Cur2Value = string | number | Date | Record<string, string>;

/** Each CUR 2.0 column written, with its value for a line (`index`: the line's number in the file). */
const cur2Columns: readonly (readonly [string, (item: BillingLineItem, index: number) => Cur2Value])[] = [
  ['identity_line_item_id', (_, index) => `line-${index}`],
  ['line_item_line_item_type', (item) => item.type],
  ['line_item_usage_start_date', (item) => new Date(item.start)],
  ['line_item_usage_end_date', (item) => new Date(item.start + HOUR_MS)],
  ['line_item_product_code', (item) => item.productCode],
  ['line_item_usage_type', (item) => item.usageType],
  ['line_item_operation', (item) => item.operation],
  ['line_item_resource_id', (item) => item.resourceId],
  ['line_item_usage_account_id', (item) => item.accountId],
  ['line_item_usage_amount', (item) => item.amount],
  ['line_item_unblended_cost', (item) => item.amount * item.rate],
  ['product_region_code', (item) => item.region],
  ['product_instance_type', (item) => item.instanceType],
  ['pricing_public_on_demand_rate', (item) => item.rate],
  ['product', productMap],
];

export const cur2Header = cur2Columns.map(([name]) => name);

/** A line's CUR 2.0 fields in `cur2Header`'s order, as the CSV export writes them (`product` as JSON). */
export function cur2Row(item: BillingLineItem, index: number): (string | number)[] {
  return cur2Columns.map(([, value]) => {
    const field = value(item, index);
    if (field instanceof Date) return field.toISOString();
    return typeof field === 'object' ? JSON.stringify(field) : field;
  });
}

const doubleColumns = new Set([
  'line_item_usage_amount',
  'line_item_unblended_cost',
  'pricing_public_on_demand_rate',
]);

/** The Parquet schema of the CUR 2.0 columns written, `product` a MAP<string, string>. */
export const cur2ParquetSchema = [
  { name: 'root', num_children: cur2Header.length },
  ...cur2Header
    .filter((name) => name !== 'product')
    .map((name) =>
      doubleColumns.has(name)
        ? { name, type: 'DOUBLE' as const, repetition_type: 'OPTIONAL' as const }
        : name.endsWith('_date')
          ? {
              name,
              type: 'INT64' as const,
              converted_type: 'TIMESTAMP_MILLIS' as const,
              repetition_type: 'OPTIONAL' as const,
            }
          : {
              name,
              type: 'BYTE_ARRAY' as const,
              converted_type: 'UTF8' as const,
              repetition_type: 'OPTIONAL' as const,
            },
    ),
  { name: 'product', repetition_type: 'OPTIONAL' as const, converted_type: 'MAP' as const, num_children: 1 },
  { name: 'key_value', repetition_type: 'REPEATED' as const, num_children: 2 },
  {
    name: 'key',
    type: 'BYTE_ARRAY' as const,
    converted_type: 'UTF8' as const,
    repetition_type: 'REQUIRED' as const,
  },
  {
    name: 'value',
    type: 'BYTE_ARRAY' as const,
    converted_type: 'UTF8' as const,
    repetition_type: 'OPTIONAL' as const,
  },
];

/** The column data of CUR 2.0 lines, in the schema's order; `firstIndex` numbers their line ids. */
export function cur2ColumnData(items: readonly BillingLineItem[], firstIndex = 0) {
  return cur2Columns.map(([name, value]) => ({
    name,
    data: items.map((item, index) => value(item, firstIndex + index)),
  }));
}

/** Writes `lines` to `path` as a CUR 2.0 Parquet file (Snappy), row group by row group. */
export function writeCur2Parquet(
  path: string,
  lines: Iterable<BillingLineItem>,
  rowGroupSize = 50_000,
): number {
  const writer = new ParquetWriter({ writer: fileWriter(path), schema: cur2ParquetSchema });
  let pending: BillingLineItem[] = [];
  let written = 0;
  const flush = () => {
    writer.write({ columnData: cur2ColumnData(pending, written), rowGroupSize });
    written += pending.length;
    pending = [];
  };
  for (const line of lines) {
    pending.push(line);
    if (pending.length >= rowGroupSize) flush();
  }
  if (pending.length > 0) flush();
  writer.finish();
  return written;
}
