/**
 * The fleet of ./export-files.ts as Parquet, written with hyparquet-writer: CUR 2.0 with a real
 * `product` MAP<string, string> column, and FOCUS 1.2 with the AWS columns.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { cur2ColumnData, cur2ParquetSchema } from '../../local/demo/cur2-parquet';
import { focusHeader, focusRows, type LineItem } from './export-files';

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
