import { inertText } from '../../inert-text';
import { type SkipReason, skipReasons } from './aws-instance-hours';
import type { ExportBatch } from './export-rows';
import { exportText } from './export-values';

/**
 * What an export's reading skipped (docs/import.md, Billing exports): the rows of each reason, and
 * the first row of each as an example, so that a file nothing of which could be used says why
 * (a spreadsheet that rewrote the dates, an export of another kind) instead of a bare count.
 */

/** The first row skipped for a reason: where it stands, and the values it was read from. */
export interface SkipExample {
  /** The file it is in (a sync's export file key); absent for an imported file. */
  readonly file?: string;
  /** Its row, counted from 1 after the header. */
  readonly row: number;
  /** The columns read from it that hold a value, as `Name=value; ...`, cut and escaped. */
  readonly values: string;
}

export interface SkippedRows {
  readonly counts: Readonly<Record<SkipReason, number>>;
  /** The first example of each reason that skipped any row. */
  readonly examples: Readonly<Partial<Record<SkipReason, SkipExample>>>;
}

/** Longest value quoted of one column, and of a whole row. */
const MAX_VALUE_CHARS = 60;
const MAX_ROW_CHARS = 400;

export function noSkippedRows(): {
  counts: Record<SkipReason, number>;
  examples: Partial<Record<SkipReason, SkipExample>>;
} {
  return {
    counts: Object.fromEntries(skipReasons.map((reason) => [reason, 0])) as Record<SkipReason, number>,
    examples: {},
  };
}

/** Row `index` of the batch as an example quotes it: the columns read that hold a value. */
export function rowValues(batch: ExportBatch, columns: readonly string[], index: number): string {
  let text = '';
  for (const name of columns) {
    const cell = batch.column(name)?.[index];
    const value = cell instanceof Date ? cell.toISOString() : exportText(cell);
    if (value === '' || value === 'NULL') continue;
    const piece = `${name}=${inertText(value, MAX_VALUE_CHARS)}`;
    if (text.length + piece.length + 2 > MAX_ROW_CHARS) return `${text}; ...`;
    text = text === '' ? piece : `${text}; ${piece}`;
  }
  return text;
}

/** Both tallies added up; each reason keeps the first example it has (`a`'s before `b`'s). */
export function addSkippedRows(a: SkippedRows, b: SkippedRows): SkippedRows {
  const sum = noSkippedRows();
  for (const reason of skipReasons) {
    sum.counts[reason] = a.counts[reason] + b.counts[reason];
    const example = a.examples[reason] ?? b.examples[reason];
    if (example) sum.examples[reason] = example;
  }
  return sum;
}

/** The reasons that skipped rows, each with its count and first example, for a message. */
export function skippedRowsText(skipped: SkippedRows): string {
  return skipReasons
    .filter((reason) => skipped.counts[reason] > 0)
    .map((reason) => {
      const example = skipped.examples[reason];
      const where = example
        ? ` (first: ${example.file ? `${example.file} ` : ''}row ${example.row}: ${example.values})`
        : '';
      return `${reason} ${skipped.counts[reason]}${where}`;
    })
    .join('; ');
}
