import {
  type AsyncBuffer,
  type FileMetaData,
  parquetMetadataAsync,
  parquetRead,
  parquetSchema,
} from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { ValidationError } from '../domain/errors';
import { columnsOf, detectImportFormat, type ExportFormat } from '../domain/usage/exports/export-formats';
import type { ExportBatch, ExportRows } from '../domain/usage/exports/export-rows';
import { exportFormatOf } from './export-format-choice';

/** A Parquet file starts and ends with these bytes. */
export const PARQUET_MAGIC = 'PAR1';

/** The names of a Parquet file's top-level columns (a map column is one name). */
export function parquetColumnNames(metadata: FileMetaData): string[] {
  return parquetSchema(metadata).children.map((child) => child.element.name);
}

/**
 * Reads a Parquet export (random access: the footer first, then each row group) one row group
 * at a time, and of it only the columns its format maps rows from. Memory holds one row group's
 * columns at a time, whatever the file's size. Snappy, ZSTD, GZIP, Brotli and LZ4 pages are read
 * (hyparquet-compressors).
 */
export async function readParquetExport(
  file: AsyncBuffer,
  format?: ExportFormat,
  rowGroups?: RowGroupRange,
): Promise<ExportRows> {
  const metadata = await parquetMetadataAsync(file);
  const names = parquetColumnNames(metadata);
  const chosen = exportFormatOf(names, format, detectImportFormat(names));
  const present = new Set(names);
  const columns = columnsOf(chosen).filter((column) => present.has(column));
  const range = rowGroups ?? { first: 0, end: metadata.row_groups.length };
  if (range.first < 0 || range.end > metadata.row_groups.length || range.first >= range.end) {
    throw new ValidationError(
      `The Parquet file has ${metadata.row_groups.length} row groups: there is no range [${range.first}, ${range.end})`,
    );
  }
  return { format: chosen, batches: rowGroupBatches(file, metadata, columns, range) };
}

/** Row groups [first, end) of a Parquet file, as a usage sync reads a large one in parts. */
export interface RowGroupRange {
  readonly first: number;
  readonly end: number;
}

/** The rows of each row group, from the file's footer alone. */
export async function parquetRowGroupSizes(file: AsyncBuffer): Promise<number[]> {
  const metadata = await parquetMetadataAsync(file).catch((error: Error) => {
    throw new ValidationError(`The Parquet file cannot be read: ${error.message}`);
  });
  return metadata.row_groups.map((group) => Number(group.num_rows));
}

async function* rowGroupBatches(
  file: AsyncBuffer,
  metadata: FileMetaData,
  columns: readonly string[],
  range: RowGroupRange,
): AsyncGenerator<ExportBatch> {
  let rowStart = 0;
  for (const [index, group] of metadata.row_groups.entries()) {
    const rows = Number(group.num_rows);
    const rowEnd = rowStart + rows;
    if (index >= range.first && index < range.end) {
      yield await readRowGroup(file, metadata, columns, rowStart, rowEnd);
    }
    rowStart = rowEnd;
  }
}

async function readRowGroup(
  file: AsyncBuffer,
  metadata: FileMetaData,
  columns: readonly string[],
  rowStart: number,
  rowEnd: number,
): Promise<ExportBatch> {
  const chunks = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>();
  await parquetRead({
    file,
    metadata,
    columns: [...columns],
    rowStart,
    rowEnd,
    compressors,
    onChunk: ({ columnName, columnData, rowStart: chunkStart }) => {
      let list = chunks.get(columnName);
      if (!list) {
        list = [];
        chunks.set(columnName, list);
      }
      list.push({ rowStart: chunkStart, data: columnData });
    },
  }).catch((error: Error) => {
    throw new ValidationError(`The Parquet file cannot be read: ${error.message}`);
  });
  const length = rowEnd - rowStart;
  const joined = new Map<string, ArrayLike<unknown>>();
  for (const [name, list] of chunks) joined.set(name, rowsOfGroup(list, rowStart, length));
  return { length, column: (name) => joined.get(name) };
}

/** One column's chunks (pages) of the row group as one array, index 0 = the group's first row. */
function rowsOfGroup(
  list: readonly { rowStart: number; data: ArrayLike<unknown> }[],
  rowStart: number,
  length: number,
): ArrayLike<unknown> {
  const only = list[0];
  if (list.length === 1 && only && only.rowStart === rowStart && only.data.length === length)
    return only.data;
  const values: unknown[] = new Array(length);
  for (const { rowStart: start, data } of list) {
    for (let index = 0; index < data.length; index++) {
      const row = start - rowStart + index;
      if (row >= 0 && row < length) values[row] = data[index];
    }
  }
  return values;
}
