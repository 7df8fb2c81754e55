import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { ValidationError } from '../domain/errors';
import { detectImportFormat, type ImportFormat } from '../domain/usage/exports/export-formats';
import type { ExportBatch, ExportRows } from '../domain/usage/exports/export-rows';
import { csvDialect } from './csv-records';
import { exportFormatOf } from './export-format-choice';

/** Records handed over per batch: enough to make the per-batch work negligible, few enough to stay small. */
const RECORDS_PER_BATCH = 8192;

/** The project's own usage file: read by the usage CSV reader (docs/import.md, Usage file). */
export interface UsageCsvFile {
  readonly format: 'usage-csv';
}

/** Whether the bytes start as gzip does (1f 8b). */
function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The stream with its first chunk put back in front. */
async function* withFirst(first: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * Reads a CSV export from a byte stream (a file, one S3 object), gunzipping it when it is gzip,
 * with csv-parse (RFC 4180: quoted fields may hold commas, quotes and line breaks). The header
 * names the format (or `format` does); the records then come in batches, each column read by its
 * header name. Memory holds one batch of records at a time.
 */
export async function readCsvExport(
  bytes: AsyncIterable<Uint8Array>,
  format?: ImportFormat,
): Promise<ExportRows | UsageCsvFile> {
  const source = bytes[Symbol.asyncIterator]();
  const first = await source.next();
  if (first.done) throw new ValidationError('The file is empty');
  const raw = Readable.from(withFirst(first.value, source), { objectMode: false });
  const text = isGzip(first.value) ? raw.pipe(createGunzip()) : raw;
  const parser = text.pipe(parse(csvDialect));
  const onSourceError = (error: Error) => parser.destroy(error);
  raw.once('error', onSourceError);
  text.once('error', (error: Error) =>
    parser.destroy(new ValidationError(`The file cannot be read: ${error.message}`)),
  );
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const header = await records.next().catch(csvError);
  if (header.done) throw new ValidationError('The file has no header');
  const columns = header.value.map((name) => name.trim());
  const detected = detectImportFormat(columns);
  if ((format ?? detected) === 'usage-csv') {
    parser.destroy();
    return { format: 'usage-csv' };
  }
  const chosen = exportFormatOf(columns, format, detected);
  return { format: chosen, batches: recordBatches(records, columns) };
}

function csvError(error: Error): never {
  if (error instanceof ValidationError) throw error;
  throw new ValidationError(`The CSV file cannot be read: ${error.message}`);
}

async function* recordBatches(
  records: AsyncIterator<string[]>,
  columns: readonly string[],
): AsyncGenerator<ExportBatch> {
  const indexOf = new Map(columns.map((name, index) => [name, index]));
  let batch: string[][] = [];
  for (
    let next = await records.next().catch(csvError);
    !next.done;
    next = await records.next().catch(csvError)
  ) {
    batch.push(next.value);
    if (batch.length === RECORDS_PER_BATCH) {
      yield columnsOfRecords(batch, indexOf);
      batch = [];
    }
  }
  if (batch.length > 0) yield columnsOfRecords(batch, indexOf);
}

function columnsOfRecords(records: readonly string[][], indexOf: ReadonlyMap<string, number>): ExportBatch {
  const built = new Map<string, ArrayLike<unknown>>();
  return {
    length: records.length,
    column(name) {
      const index = indexOf.get(name);
      if (index === undefined) return undefined;
      let values = built.get(name);
      if (!values) {
        values = records.map((record) => record[index] ?? '');
        built.set(name, values);
      }
      return values;
    },
  };
}
