import { ValidationError } from '../domain/errors';
import { inertText } from '../domain/inert-text';
import {
  type ExportFormat,
  type ImportFormat,
  importFormats,
  missingColumns,
} from '../domain/usage/exports/export-formats';

/**
 * The export format a file is read as: the one asked for (`--format`), which must then have its
 * identifying columns, or the one its columns name. A ValidationError names what is missing.
 */
export function exportFormatOf(
  columns: readonly string[],
  asked: ImportFormat | undefined,
  detected: ImportFormat | undefined,
): ExportFormat {
  const format = asked ?? detected;
  if (format === undefined) {
    throw new ValidationError(
      `The file's columns are none of the formats read (${importFormats.join(', ')}); its first columns are ${shownColumns(columns)}`,
    );
  }
  const missing = missingColumns(format, columns);
  if (missing.length > 0) {
    throw new ValidationError(`The file is not ${format}: it has no column ${missing.join(', ')}`);
  }
  if (format === 'usage-csv') {
    throw new ValidationError('The file is the project usage CSV, not a billing export');
  }
  return format;
}

/** How many of a header's first columns an error quotes, and how long each and all may be. */
const SHOWN_COLUMNS = 8;
const MAX_COLUMN_CHARS = 40;
const MAX_SHOWN_CHARS = 200;

/**
 * The header's first columns as an error quotes them: a file that is not CSV (another separator,
 * binary bytes) has one "column" that is its whole first line, control bytes and all; each is cut
 * and escaped (docs/import.md, Billing exports), and so is the whole.
 */
function shownColumns(columns: readonly string[]): string {
  let shown = '';
  for (const column of columns.slice(0, SHOWN_COLUMNS)) {
    const next = `${shown === '' ? '' : `${shown}, `}${inertText(column, MAX_COLUMN_CHARS)}`;
    if (next.length > MAX_SHOWN_CHARS) return `${shown}, ...`;
    shown = next;
  }
  return shown;
}
