import { ValidationError } from '../../errors';

/**
 * The bounds on what a usage sync or an import reads from a customer's files (docs/usage-sync.md,
 * Bounds; OWASP API4, unrestricted resource consumption). The usage-sync function has 3008 MB
 * (lib/usage-sync-settings.ts), of which Node gives its heap about a quarter: each bound keeps what
 * one file can make the reader hold well inside that heap, or what it can make it do well inside
 * the function's 15 minutes. A file over a bound is refused, naming the bound, before it is read
 * further: the sync refuses the file's billing period and goes on with the others, an import
 * fails. Real exports are far inside every bound (docs/usage-sync.md says how far).
 */
export const exportBounds = {
  /**
   * Rows of one Parquet row group: a row group's columns are decoded at once, as JavaScript
   * values of a few dozen bytes each per column read, so its rows are what its memory grows with.
   */
  rowGroupRows: 1_000_000,
  /**
   * Uncompressed bytes of the columns read of one row group, as the footer declares them, and of
   * any one page: few rows of huge values are as heavy as many rows.
   */
  rowGroupBytes: 128 * 1024 * 1024,
  /** Bytes of a Parquet file's footer: its metadata is parsed whole. */
  parquetFooterBytes: 8 * 1024 * 1024,
  /**
   * Bytes of a CSV file once gunzipped (its text): read as a stream, so this bounds the time one
   * file takes (a gzip bomb inflates without end), not the memory.
   */
  csvTextBytes: 4 * 1024 * 1024 * 1024,
  /** Characters of one CSV record (csv-parse `max_record_size`): a record is held whole. */
  csvRecordChars: 1024 * 1024,
  /** Fields of one CSV record: each is a string held with its record. */
  csvRecordFields: 5000,
  /** Bytes of one manifest: it is read and parsed whole. */
  manifestBytes: 4 * 1024 * 1024,
  /**
   * Files one billing period's manifest names: the run item of the deployed sync lists them
   * (a DynamoDB item holds at most 400 KB).
   */
  filesPerPeriod: 500,
} as const;

export type ExportBound = keyof typeof exportBounds;

/** Bounds to read within: exportBounds, or in a test of a bound too large to reach quickly, lower ones. */
export type ExportBounds = Readonly<Record<ExportBound, number>>;

/** The stable codes of the bounds, as the sync state and the checklist name them. */
export const exportBoundCodes: Readonly<Record<ExportBound, string>> = {
  rowGroupRows: 'row_group_rows',
  rowGroupBytes: 'row_group_bytes',
  parquetFooterBytes: 'parquet_footer_bytes',
  csvTextBytes: 'csv_text_bytes',
  csvRecordChars: 'csv_record_chars',
  csvRecordFields: 'csv_record_fields',
  manifestBytes: 'manifest_bytes',
  filesPerPeriod: 'files_per_period',
};

const units: Partial<Record<ExportBound, string>> = {
  rowGroupRows: 'rows',
  csvRecordChars: 'characters',
  csvRecordFields: 'fields',
  filesPerPeriod: 'files',
};

/** A bound's value in words: `1,000,000 rows`, `128 MiB`, `4 GiB`, `100 bytes`. */
export function boundInWords(bound: ExportBound, value: number): string {
  const unit = units[bound];
  if (unit) return `${value.toLocaleString('en-US')} ${unit}`;
  const mib = value / (1024 * 1024);
  if (mib >= 1024 && Number.isInteger(mib / 1024)) return `${mib / 1024} GiB`;
  if (Number.isInteger(mib) && mib >= 1) return `${mib} MiB`;
  return `${value.toLocaleString('en-US')} bytes`;
}

/**
 * A file is over one of the bounds: `boundCode` (exportBoundCodes) says which, stable for clients
 * and tests; the message names the bound, its value and what the file holds.
 */
export class ExportBoundError extends ValidationError {
  readonly bound: ExportBound;
  readonly boundCode: string;
  readonly limit: number;

  constructor(bound: ExportBound, limit: number, what: string) {
    super(`${what}: over the bound ${exportBoundCodes[bound]} of ${boundInWords(bound, limit)}`);
    this.bound = bound;
    this.boundCode = exportBoundCodes[bound];
    this.limit = limit;
  }
}

/** Throws ExportBoundError when `found` is over the bound. */
export function checkBound(
  bounds: ExportBounds,
  bound: ExportBound,
  found: number,
  what: () => string,
): void {
  if (found > bounds[bound]) throw new ExportBoundError(bound, bounds[bound], what());
}
