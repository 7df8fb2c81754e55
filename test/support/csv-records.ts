import { parse } from 'csv-parse/sync';
import type { CsvRecord } from '../../shared/domain/csv/csv-reader';
import { CsvRecordLines, readCsvRecords } from '../../shared/exports/csv-records';

async function* withLineBreaks(lines: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
  for await (const line of lines) yield `${line}\n`;
}

/**
 * The records an import reads of a file of these lines (each ended by LF), through the CSV
 * adapter the admin CLI reads files with; lazily, as a file is read.
 */
export function recordsOf(
  lines: Iterable<string> | AsyncIterable<string>,
): AsyncIterable<readonly CsvRecord[]> {
  return readCsvRecords(withLineBreaks(lines));
}

/**
 * The same records at once, for the domain's parsers: csv-parse's synchronous parser with the
 * adapter's options and line numbering, the record that is not CSV last.
 */
export function recordsOfLines(lines: readonly string[]): CsvRecord[] {
  const numbering = new CsvRecordLines();
  const records: string[][] = [];
  const options = numbering.options(() => records.length);
  parse(lines.map((line) => `${line}\n`).join(''), {
    ...options,
    on_record: (fields: string[]) => {
      records.push(fields);
      return null;
    },
  });
  return numbering.number(records, true);
}
