import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { type CsvError, type InfoRecord, type Options, parse } from 'csv-parse';
import type { CsvRecord } from '../domain/csv/csv-reader';

/**
 * The CSV dialect of every CSV file read (docs/import.md, CSV rules): RFC 4180, so a quoted field
 * may hold commas, `""` quotes and line breaks; a leading byte order mark and empty lines are
 * skipped; records end with LF or CRLF, both in one file; a record may have any number of fields
 * (its reader says what is wrong with the count, naming the header).
 */
export const csvDialect = {
  bom: true,
  skip_empty_lines: true,
  relax_column_count: true,
  record_delimiter: ['\r\n', '\n'],
} as const satisfies Options;

/** Line breaks inside a record's fields: only a quoted field holds one. */
function lineBreaksIn(fields: readonly string[]): number {
  let breaks = 0;
  for (const field of fields) {
    for (let at = field.indexOf('\n'); at >= 0; at = field.indexOf('\n', at + 1)) breaks += 1;
  }
  return breaks;
}

/** What a record that is not CSV has wrong, in the words of the import docs. */
function problemOf(error: CsvError): string {
  const field = typeof error.column === 'number' ? `field ${error.column + 1}` : 'a field';
  const stopped = '; the rest of the file was not read';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `a quoted field opens on this record and is not closed by the end of the file${stopped}`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `${field} has text after its closing quote${stopped}`;
    case 'INVALID_OPENING_QUOTE':
      return `${field} has a quote inside unquoted text (quote the field and double the quote)${stopped}`;
    default:
      return `the record is not CSV (${error.message})${stopped}`;
  }
}

/**
 * Numbers the records csv-parse reads by the physical line each starts on (the first line is 1):
 * the line after the previous record, plus the empty lines skipped since, a record spanning as
 * many more lines as its quoted fields hold line breaks. csv-parse's own `lines` counts a CRLF
 * inside a quoted field twice, so it is not used. At the first record that is not CSV, csv-parse
 * cannot tell where the next record starts: that record becomes `problem` and none after it is
 * kept. (Stopping the parser there instead would lose the records it read before it in the same
 * chunk.)
 */
export class CsvRecordLines {
  #nextLine = 1;
  #emptyLines = 0;
  #problem: CsvRecord | undefined;

  /** The record that is not CSV, if csv-parse met one. */
  get problem(): CsvRecord | undefined {
    return this.#problem;
  }

  /**
   * csv-parse's options: the dialect, each record numbered and handed to `keep` (csv-parse then
   * passes nothing on), none kept after a problem.
   */
  options(keep: (record: CsvRecord) => void): Options {
    return {
      ...csvDialect,
      skip_records_with_error: true,
      on_record: (fields: string[], info: InfoRecord) => {
        if (!this.#problem) keep(this.#record(fields, info.empty_lines));
        return null;
      },
      on_skip: (error: CsvError | undefined) => {
        if (error && !this.#problem) this.#problem = { line: this.#lineOf(error), problem: problemOf(error) };
        return undefined;
      },
    };
  }

  #record(fields: string[], emptyLines: number): CsvRecord {
    const line = this.#startLine(emptyLines);
    this.#nextLine = line + 1 + lineBreaksIn(fields);
    return { line, fields };
  }

  #lineOf(error: CsvError): number {
    return this.#startLine(typeof error.empty_lines === 'number' ? error.empty_lines : this.#emptyLines);
  }

  #startLine(emptyLines: number): number {
    const line = this.#nextLine + emptyLines - this.#emptyLines;
    this.#emptyLines = emptyLines;
    return line;
  }
}

/**
 * The records of a CSV file read from its bytes (a file stream, say) with one csv-parse stream
 * parser, each with the line it starts on, in batches: those of each chunk of bytes (a batch per
 * chunk rather than an await per record, which would cost more than the parsing). A record that
 * is not CSV (a quote never closed, text after a closing quote) comes last, holding its problem:
 * the records after it are not read as records. A source that fails fails the iteration with its
 * own error.
 */
export async function* readCsvRecords(
  bytes: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<readonly CsvRecord[]> {
  const lines = new CsvRecordLines();
  let batch: CsvRecord[] = [];
  const parser = parse(lines.options((record) => batch.push(record)));
  const parsed = finished(parser.resume());
  // Observed at the end; until then a failure must not go unhandled.
  parsed.catch(() => undefined);
  const taken = () => {
    const full = batch;
    batch = [];
    return full;
  };
  try {
    for await (const chunk of bytes) {
      if (!parser.write(chunk)) await once(parser, 'drain');
      if (batch.length > 0) yield taken();
    }
    parser.end();
    await parsed;
    if (batch.length > 0) yield taken();
    if (lines.problem) yield [lines.problem];
  } finally {
    parser.destroy();
  }
}
