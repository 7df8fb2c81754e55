import { ValidationError } from '../domain/errors';
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
      `The file's columns are none of the formats read (${importFormats.join(', ')}); its first columns are ${columns.slice(0, 8).join(', ')}`,
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
