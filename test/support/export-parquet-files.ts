/**
 * The fleet of ./export-files.ts as Parquet, written with hyparquet-writer: CUR 2.0 with a real
 * `product` MAP<string, string> column, and FOCUS 1.2 with the AWS columns.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { cur2Header, cur2Row, focusHeader, focusRows, type LineItem, productMap } from './export-files';

/** The Parquet schema of the CUR 2.0 columns written, `product` a MAP<string, string>. */
export const cur2ParquetSchema = [
  { name: 'root', num_children: cur2Header.length },
  ...cur2Header
    .filter((name) => name !== 'product')
    .map((name) =>
      name === 'line_item_usage_amount' ||
      name === 'line_item_unblended_cost' ||
      name === 'pricing_public_on_demand_rate'
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

/** The column data of CUR 2.0 lines, in the schema's order. */
export function cur2ColumnData(items: readonly LineItem[]) {
  const rows = items.map(cur2Row);
  return cur2Header.map((name, column) => ({
    name,
    data:
      name === 'product'
        ? items.map(productMap)
        : name.endsWith('_date')
          ? rows.map((row) => new Date(row[column] as string))
          : rows.map((row) => row[column]),
  }));
}

/** CUR 2.0 as Parquet (Snappy), in row groups of `rowGroupSize`. */
export function cur2Parquet(items: readonly LineItem[], rowGroupSize = 1000): Uint8Array {
  return new Uint8Array(
    parquetWriteBuffer({ columnData: cur2ColumnData(items), schema: cur2ParquetSchema, rowGroupSize }),
  );
}

/** FOCUS 1.2 with the AWS columns, as Parquet. */
export function focusParquet(items: readonly LineItem[]): Uint8Array {
  const rows = focusRows(items);
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: focusHeader.map((name, column) => ({
        name,
        data: rows.map((row) => row[column]),
        type: typeof rows[0]?.[column] === 'number' ? ('DOUBLE' as const) : ('STRING' as const),
      })),
      rowGroupSize: 1000,
    }),
  );
}
