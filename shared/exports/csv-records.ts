import { type CsvError, type Options, type Parser, parse } from 'csv-parse';
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
 * csv-parse hands out empty lines too (as records of one empty field, left out here), so a record
 * starts on the line after the previous one, and spans as many more lines as its quoted fields
 * hold line breaks. csv-parse's own `lines` counts a CRLF inside a quoted field twice, and its
 * per-record context (`on_record`, `info`) costs more than the numbering, so neither is used.
 * At the first record that is not CSV, csv-parse cannot tell where the next record starts: that
 * record becomes the last, holding its problem. (Stopping the parser there instead would lose the
 * records it read before it in the same chunk.)
 */
export class CsvRecordLines {
  #nextLine = 1;
  #numbered = 0;
  /** What is wrong with the record after the first `#recordsBefore` ones. */
  #problem: { readonly recordsBefore: number; readonly message: string } | undefined;

  /** csv-parse's options: the dialect, empty lines kept as records, a record that is not CSV reported to `problem`. */
  options(recordsParsed: () => number): Options {
    return {
      ...csvDialect,
      skip_empty_lines: false,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        if (error && !this.#problem)
          this.#problem = { recordsBefore: recordsParsed(), message: problemOf(error) };
        return undefined;
      },
    };
  }

  /**
   * The records csv-parse handed out, in order, numbered; none after a record that is not CSV,
   * which comes last once `ended`.
   */
  number(records: readonly string[][], ended: boolean): CsvRecord[] {
    const numbered: CsvRecord[] = [];
    for (const fields of records) {
      if (this.#problem && this.#numbered >= this.#problem.recordsBefore) break;
      if (fields.length !== 1 || fields[0] !== '') numbered.push({ line: this.#nextLine, fields });
      this.#nextLine += 1 + lineBreaksIn(fields);
      this.#numbered += 1;
    }
    if (ended && this.#problem) numbered.push({ line: this.#nextLine, problem: this.#problem.message });
    return numbered;
  }
}

/**
 * The records of a CSV file read from its bytes (a file stream, say) with one csv-parse stream
 * parser, each with the line it starts on, in batches: those of each chunk of bytes, taken from
 * the parser without an await per record (which would cost more than the parsing). A record that
 * is not CSV (a quote never closed, text after a closing quote) comes last, holding its problem:
 * the records after it are not read as records. A source that fails fails the iteration with its
 * own error.
 */
export async function* readCsvRecords(
  bytes: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<readonly CsvRecord[]> {
  const lines = new CsvRecordLines();
  let taken = 0;
  const parser: Parser = parse(lines.options(() => taken + parser.readableLength));
  const takeParsed = (): string[][] => {
    const records: string[][] = [];
    for (let record = parser.read(); record !== null; record = parser.read()) records.push(record);
    taken += records.length;
    return records;
  };
  try {
    for await (const chunk of bytes) {
      // No wait for 'drain': the source is read one chunk per turn, and taking the parsed records
      // is what lets csv-parse take the next chunk.
      parser.write(chunk);
      const batch = lines.number(takeParsed(), false);
      if (batch.length > 0) yield batch;
    }
    parser.end();
    const rest: string[][] = [];
    for await (const record of parser) rest.push(record);
    taken += rest.length;
    const batch = lines.number(rest, true);
    if (batch.length > 0) yield batch;
  } finally {
    parser.destroy();
  }
}
