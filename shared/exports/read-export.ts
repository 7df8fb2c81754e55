import type { AsyncBuffer } from 'hyparquet';
import type { ImportFormat } from '../domain/usage/exports/export-formats';
import type { ExportRows } from '../domain/usage/exports/export-rows';
import { readCsvExport, type UsageCsvFile } from './csv-export-reader';
import { PARQUET_MAGIC, readParquetExport } from './parquet-export-reader';

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
 * it is read line by line by its own reader.
 */
export async function readExport(
  source: ExportSource,
  format?: ImportFormat,
): Promise<ExportRows | UsageCsvFile> {
  const head = new Uint8Array(await source.random.slice(0, Math.min(4, source.random.byteLength)));
  if (new TextDecoder().decode(head) === PARQUET_MAGIC) {
    return readParquetExport(source.random, format === 'usage-csv' ? undefined : format);
  }
  return readCsvExport(source.stream(), format);
}
