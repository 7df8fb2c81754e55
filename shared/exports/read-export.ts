import type { AsyncBuffer } from 'hyparquet';
import { ValidationError } from '../domain/errors';
import { type ExportBounds, exportBounds } from '../domain/usage/exports/export-bounds';
import type { ImportFormat } from '../domain/usage/exports/export-formats';
import type { ExportRows } from '../domain/usage/exports/export-rows';
import { readCsvExport, type UsageCsvFile } from './csv-export-reader';
import {
  PARQUET_MAGIC,
  parquetRowGroupSizes,
  type RowGroupRange,
  readParquetExport,
} from './parquet-export-reader';

/**
 * Where an export's bytes come from: Parquet needs random access (its footer describes the row
 * groups), CSV and gzip CSV are read as a stream. A sync reading one S3 object gives `slice` as
 * ranged GETs and `stream` as the object's body.
 */
export interface ExportSource {
  readonly random: AsyncBuffer;
  stream(): AsyncIterable<Uint8Array>;
}

/**
 * Opens an export of any format read (docs/import.md, Billing exports): Parquet when the file
 * starts with `PAR1`, else CSV (gzip or not). The project's own usage CSV answers `usage-csv`:
 * it is read line by line by its own reader. Whatever the format, the file is read within the
 * bounds (export-bounds.ts): one over a bound fails with an ExportBoundError.
 */
export async function readExport(
  source: ExportSource,
  format?: ImportFormat,
  rowGroups?: RowGroupRange,
  bounds: ExportBounds = exportBounds,
): Promise<ExportRows | UsageCsvFile> {
  if (await isParquet(source)) {
    return readParquetExport(source.random, format === 'usage-csv' ? undefined : format, rowGroups, bounds);
  }
  if (rowGroups) throw new ValidationError('only a Parquet file is read by row groups; this one is CSV');
  return readCsvExport(source.stream(), format, bounds);
}

async function isParquet(source: ExportSource): Promise<boolean> {
  const head = new Uint8Array(await source.random.slice(0, Math.min(4, source.random.byteLength)));
  return new TextDecoder().decode(head) === PARQUET_MAGIC;
}

/**
 * The rows of each row group of a Parquet export (its footer only: two ranged reads), or null for
 * a CSV export, which is read whole. How a sync plans its parts (docs/usage-sync.md, Deployed).
 */
export async function exportRowGroupSizes(
  source: ExportSource,
  bounds: ExportBounds = exportBounds,
): Promise<number[] | null> {
  return (await isParquet(source)) ? parquetRowGroupSizes(source.random, bounds) : null;
}

/**
 * How a usage sync reads exports (shared/app/usage-sync-steps.ts): every format, by row-group
 * ranges, within `bounds` (tests of a bound too large to reach quickly lower it).
 */
export function exportReadersWithin(bounds: ExportBounds) {
  return {
    openExport: (source: ExportSource, rowGroups?: RowGroupRange) =>
      readExport(source, undefined, rowGroups, bounds),
    rowGroupSizes: (source: ExportSource) => exportRowGroupSizes(source, bounds),
  };
}

/** The usage sync's readers within the bounds of docs/usage-sync.md (export-bounds.ts). */
export const syncExportReaders = exportReadersWithin(exportBounds);
