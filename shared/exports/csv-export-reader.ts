import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type CsvError, parse } from 'csv-parse';
import { ValidationError } from '../domain/errors';
import {
  checkBound,
  ExportBoundError,
  type ExportBounds,
  exportBounds,
} from '../domain/usage/exports/export-bounds';
import { detectImportFormat, type ImportFormat } from '../domain/usage/exports/export-formats';
import type { ExportBatch, ExportRows } from '../domain/usage/exports/export-rows';
import { boundedText } from './bounded-text';
import { csvDialect } from './csv-records';
import { exportFormatOf } from './export-format-choice';

/** Records handed over per batch: enough to make the per-batch work negligible, few enough to stay small. */
const RECORDS_PER_BATCH = 8192;
/**
 * A batch ends sooner once its records hold this many fields or characters: records near the
 * bounds (export-bounds.ts) are hundreds of times larger than an export's usual ones, and a batch
 * of 8192 of them would not be small.
 */
const FIELDS_PER_BATCH = 2 * 1024 * 1024;
const CHARS_PER_BATCH = 16 * 1024 * 1024;

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
 * header name. Memory holds one batch of records at a time. The text, its lines, records and
 * fields are bounded (export-bounds.ts): a file over a bound fails with an ExportBoundError.
 */
export async function readCsvExport(
  bytes: AsyncIterable<Uint8Array>,
  format?: ImportFormat,
  bounds: ExportBounds = exportBounds,
): Promise<ExportRows | UsageCsvFile> {
  const source = bytes[Symbol.asyncIterator]();
  const first = await source.next();
  if (first.done) throw new ValidationError('The file is empty');
  const raw = Readable.from(withFirst(first.value, source), { objectMode: false });
  const inflated = isGzip(first.value) ? raw.pipe(createGunzip()) : raw;
  const text = inflated.pipe(boundedText(bounds));
  const parser = text.pipe(parse({ ...csvDialect, max_record_size: bounds.csvRecordChars }));
  const onSourceError = (error: Error) => parser.destroy(error);
  raw.once('error', onSourceError);
  if (inflated !== raw) {
    inflated.once('error', (error: Error) =>
      parser.destroy(new ValidationError(`The file cannot be read: ${error.message}`)),
    );
  }
  text.once('error', (error: Error) => {
    // Past a bound nothing more is read: the source stops too.
    raw.destroy();
    inflated.destroy();
    parser.destroy(error);
  });
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const header = await records.next().catch((error: Error) => csvError(error, bounds));
  if (header.done) throw new ValidationError('The file has no header');
  checkFields(bounds, header.value, 1);
  const columns = header.value.map((name) => name.trim());
  const detected = detectImportFormat(columns);
  if ((format ?? detected) === 'usage-csv') {
    parser.destroy();
    return { format: 'usage-csv' };
  }
  const chosen = exportFormatOf(columns, format, detected);
  return { format: chosen, batches: recordBatches(records, columns, bounds) };
}

function csvError(error: Error, bounds: ExportBounds): never {
  if (error instanceof ValidationError) throw error;
  if ((error as CsvError).code === 'CSV_MAX_RECORD_SIZE') {
    const line = (error as CsvError).lines;
    throw new ExportBoundError(
      'csvRecordChars',
      bounds.csvRecordChars,
      `the record reaching line ${line} of the file is longer`,
    );
  }
  throw new ValidationError(`The CSV file cannot be read: ${error.message}`);
}

/** A record's fields inside the bound (`record` counts from 1, the header). */
function checkFields(bounds: ExportBounds, fields: readonly string[], record: number): void {
  checkBound(
    bounds,
    'csvRecordFields',
    fields.length,
    () => `record ${record} of the file has ${fields.length} fields`,
  );
}

async function* recordBatches(
  records: AsyncIterator<string[]>,
  columns: readonly string[],
  bounds: ExportBounds,
): AsyncGenerator<ExportBatch> {
  const indexOf = new Map(columns.map((name, index) => [name, index]));
  const next = () => records.next().catch((error: Error) => csvError(error, bounds));
  let batch: string[][] = [];
  let fields = 0;
  let chars = 0;
  let record = 1;
  for (let read = await next(); !read.done; read = await next()) {
    const fieldsOf = read.value;
    record += 1;
    checkFields(bounds, fieldsOf, record);
    batch.push(fieldsOf);
    fields += fieldsOf.length;
    for (const field of fieldsOf) chars += field.length;
    if (batch.length === RECORDS_PER_BATCH || fields >= FIELDS_PER_BATCH || chars >= CHARS_PER_BATCH) {
      yield columnsOfRecords(batch, indexOf);
      batch = [];
      fields = 0;
      chars = 0;
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
