import { decompress as decompressZstd } from 'fzstd';
import {
  type AsyncBuffer,
  type Compressors,
  type FileMetaData,
  parquetMetadataAsync,
  parquetRead,
  parquetSchema,
} from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { ValidationError } from '../domain/errors';
import {
  checkBound,
  ExportBoundError,
  type ExportBounds,
  exportBounds,
} from '../domain/usage/exports/export-bounds';
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
 * columns at a time, whatever the file's size; the footer, each row group and each page are
 * bounded (export-bounds.ts), checked before they are read. Snappy, ZSTD, GZIP, Brotli and LZ4
 * pages are read (hyparquet-compressors).
 */
export async function readParquetExport(
  file: AsyncBuffer,
  format?: ExportFormat,
  rowGroups?: RowGroupRange,
  bounds: ExportBounds = exportBounds,
): Promise<ExportRows> {
  const metadata = await boundedMetadata(file, bounds);
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
  for (let group = range.first; group < range.end; group++) checkRowGroup(metadata, group, columns, bounds);
  return { format: chosen, batches: rowGroupBatches(file, metadata, columns, range, bounds) };
}

/**
 * The footer, once its length (the 4 bytes before the closing magic) is inside the bound: the
 * metadata is parsed whole.
 */
async function boundedMetadata(file: AsyncBuffer, bounds: ExportBounds): Promise<FileMetaData> {
  if (file.byteLength >= 8) {
    const tail = new Uint8Array(await file.slice(file.byteLength - 8, file.byteLength));
    // A file that does not end as Parquet does is left to hyparquet to refuse as not Parquet.
    if (new TextDecoder().decode(tail.subarray(4)) === PARQUET_MAGIC) {
      const footer = new DataView(tail.buffer, tail.byteOffset, 4).getUint32(0, true);
      checkBound(bounds, 'parquetFooterBytes', footer, () => `the Parquet file's footer is ${footer} bytes`);
    }
  }
  return parquetMetadataAsync(file);
}

/** A row group's rows, and the bytes its footer declares for the columns read, inside the bounds. */
function checkRowGroup(
  metadata: FileMetaData,
  group: number,
  columns: readonly string[],
  bounds: ExportBounds,
): void {
  const rowGroup = metadata.row_groups[group];
  if (!rowGroup) return;
  const rows = Number(rowGroup.num_rows);
  checkBound(bounds, 'rowGroupRows', rows, () => `row group ${group} of the Parquet file has ${rows} rows`);
  const read = new Set(columns);
  let bytes = 0;
  for (const chunk of rowGroup.columns) {
    const meta = chunk.meta_data;
    if (!meta || !read.has(meta.path_in_schema[0] ?? '')) continue;
    bytes += Math.max(Number(meta.total_uncompressed_size), Number(meta.total_compressed_size));
  }
  checkBound(
    bounds,
    'rowGroupBytes',
    bytes,
    () => `row group ${group} of the Parquet file holds ${bytes} bytes in the columns read`,
  );
}

/**
 * The decompressors, each refusing a page whose header declares more than the bound before it
 * allocates anything; ZSTD writes into a buffer of the declared size (a frame that inflates further
 * fails) rather than one of the size the frame claims.
 */
function boundedCompressors(bounds: ExportBounds): Compressors {
  return Object.fromEntries(
    Object.entries({
      ...compressors,
      ZSTD: (input: Uint8Array, length: number) => decompressZstd(input, new Uint8Array(length)),
    }).map(([codec, decompress]) => [
      codec,
      (input: Uint8Array, length: number) => {
        checkBound(bounds, 'rowGroupBytes', length, () => `a page of the Parquet file is ${length} bytes`);
        return decompress(input, length);
      },
    ]),
  );
}

/** Row groups [first, end) of a Parquet file, as a usage sync reads a large one in parts. */
export interface RowGroupRange {
  readonly first: number;
  readonly end: number;
}

/** The rows of each row group, from the file's footer alone. */
export async function parquetRowGroupSizes(
  file: AsyncBuffer,
  bounds: ExportBounds = exportBounds,
): Promise<number[]> {
  const metadata = await boundedMetadata(file, bounds).catch((error: Error) => {
    if (error instanceof ExportBoundError) throw error;
    throw new ValidationError(`The Parquet file cannot be read: ${error.message}`);
  });
  return metadata.row_groups.map((group) => Number(group.num_rows));
}

async function* rowGroupBatches(
  file: AsyncBuffer,
  metadata: FileMetaData,
  columns: readonly string[],
  range: RowGroupRange,
  bounds: ExportBounds,
): AsyncGenerator<ExportBatch> {
  const decompressors = boundedCompressors(bounds);
  let rowStart = 0;
  for (const [index, group] of metadata.row_groups.entries()) {
    const rows = Number(group.num_rows);
    const rowEnd = rowStart + rows;
    if (index >= range.first && index < range.end) {
      yield await readRowGroup(file, metadata, columns, rowStart, rowEnd, decompressors);
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
  decompressors: Compressors,
): Promise<ExportBatch> {
  const chunks = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>();
  await parquetRead({
    file,
    metadata,
    columns: [...columns],
    rowStart,
    rowEnd,
    compressors: decompressors,
    onChunk: ({ columnName, columnData, rowStart: chunkStart }) => {
      let list = chunks.get(columnName);
      if (!list) {
        list = [];
        chunks.set(columnName, list);
      }
      list.push({ rowStart: chunkStart, data: columnData });
    },
  }).catch((error: Error) => {
    if (error instanceof ExportBoundError) throw error;
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
