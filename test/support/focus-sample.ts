/**
 * The FinOps Foundation's FOCUS 1.0 sample (test/fixtures/exports/README.md) as records, and
 * files written from its records changed the way a real export or a spreadsheet changes them:
 * the real layout, every column of it, in its order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ExportBatch } from '../../shared/domain/usage/exports/export-rows';

export const focusSamplePath = join(import.meta.dirname, '../fixtures/exports/focus-1.0-sample.csv');

export type FocusRecord = Record<string, string>;

/** The sample's header, in its order. */
export function focusSampleHeader(): string[] {
  return (parse(readFileSync(focusSamplePath), { to_line: 1 }) as string[][])[0] as string[];
}

/** Every record of the sample, by column name. */
export function focusSampleRecords(): FocusRecord[] {
  return parse(readFileSync(focusSamplePath), { columns: true }) as FocusRecord[];
}

/** The sample's first record whose charge description is `description`. */
export function focusSampleRecord(description: string): FocusRecord {
  const found = focusSampleRecords().find((record) => record.ChargeDescription === description);
  if (!found) throw new Error(`the FOCUS sample has no record described ${description}`);
  return found;
}

/** Records as a CSV file of the sample's header, every field quoted as the sample quotes them. */
export function focusCsv(records: readonly FocusRecord[]): string {
  const header = focusSampleHeader();
  const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const lines = [header.map(quoted).join(',')];
  for (const record of records) lines.push(header.map((name) => quoted(record[name] ?? '')).join(','));
  return `${lines.join('\n')}\n`;
}

/** Records as one batch, the way the CSV reader hands columns over. */
export function batchOfRecords(records: readonly FocusRecord[]): ExportBatch {
  return {
    length: records.length,
    column: (name) => (name in (records[0] ?? {}) ? records.map((record) => record[name] ?? '') : undefined),
  };
}

/** `2024-09-26 01:00:00` as a US spreadsheet shows and saves a date and time: `9/26/2024 1:00`. */
function spreadsheetDate(text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})/.exec(text);
  if (!match) return text;
  const [, year, month, day, hour, minute] = match;
  return `${Number(month)}/${Number(day)}/${year} ${Number(hour)}:${minute}`;
}

const dateColumns = ['BillingPeriodEnd', 'BillingPeriodStart', 'ChargePeriodEnd', 'ChargePeriodStart'];

/**
 * The sample opened in a spreadsheet and saved again as CSV: its dates rewritten in the
 * spreadsheet's own format (`9/26/2024 1:00`), quotes only where a field needs them.
 */
export function spreadsheetResavedSample(): string {
  const header = focusSampleHeader();
  const field = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = [header.map(field).join(',')];
  for (const record of focusSampleRecords()) {
    lines.push(
      header
        .map((name) =>
          field(dateColumns.includes(name) ? spreadsheetDate(record[name] ?? '') : (record[name] ?? '')),
        )
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
