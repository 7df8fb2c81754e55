import { describe, expect, it } from 'vitest';
import { CsvImportError, MAX_REPORTED_CSV_ERRORS } from '../../../shared/domain/csv/csv-import-error';
import { CsvReader } from '../../../shared/domain/csv/csv-reader';
import { recordsOfLines } from '../../support/csv-records';

const columns = ['id', 'name', 'size'] as const;

/** Reads the records of `lines` (csv-parse, as imports do) and answers the rows as objects, or the import error. */
function read(lines: string[], check?: (values: Record<string, string>, error: (m: string) => void) => void) {
  const rows: Record<string, string>[] = [];
  const reader = new CsvReader(columns, (row) => {
    const values = {
      line: String(row.line),
      id: row.value('id'),
      name: row.value('name'),
      size: row.value('size'),
    };
    check?.(values, row.error);
    rows.push(values);
  });
  for (const record of recordsOfLines(lines)) reader.push(record);
  try {
    reader.finish();
    return { rows, reader };
  } catch (error) {
    if (error instanceof CsvImportError) return { rows, reader, error };
    throw error;
  }
}

describe('CSV reader', () => {
  it('maps fields to columns named by the header in any order, trimming spaces', () => {
    // Act
    const { rows, error, reader } = read(['size, id ,name', '3, a ,"Ann, B"', '5,b,Bob']);

    // Assess
    expect(error).toBeUndefined();
    expect(rows).toEqual([
      { line: '2', id: 'a', name: 'Ann, B', size: '3' },
      { line: '3', id: 'b', name: 'Bob', size: '5' },
    ]);
    expect(reader.rows).toBe(2);
  });

  it('drops carriage returns, a byte order mark and blank lines, counting physical lines', () => {
    // Act
    const { rows, error } = read(['\uFEFFid,name,size\r', 'a,Ann,1\r', '\r', '', 'b,Bob,2\r', '']);

    // Assess
    expect(error).toBeUndefined();
    expect(rows.map((row) => [row.line, row.id, row.size])).toEqual([
      ['2', 'a', '1'],
      ['5', 'b', '2'],
    ]);
  });

  it('names missing, unknown and repeated columns of a bad header on line 1', () => {
    // Act
    const { error, rows } = read(['id,nme,id', 'a,b,c']);

    // Assess
    expect(rows).toEqual([]);
    expect(error?.errors).toEqual([
      {
        line: 1,
        message:
          'bad header: missing columns: name, size; unknown columns: nme; repeated columns: id (expected id,name,size, in any order)',
      },
    ]);
  });

  it('reports rows with the wrong number of fields by line, and the rows’ own errors', () => {
    // Act
    const { error } = read(['id,name,size', 'a,b', 'x,y,z', 'a,b,c,d'], (values, fail) => {
      if (values.size === 'z') fail('size must be a number');
    });

    // Assess
    expect(error?.errors).toEqual([
      { line: 2, message: 'has 2 fields; the header has 3' },
      { line: 3, message: 'size must be a number' },
      { line: 4, message: 'has 4 fields; the header has 3' },
    ]);
    expect(error?.errorCount).toBe(3);
    expect(error?.fields['line 3']).toEqual(['size must be a number']);
  });

  it('reads quoted fields across lines, numbering each row by its first line', () => {
    // Act: the quoted name opened on line 2 ends on line 4 (a CRLF, then an LF inside it), so
    // the next row is line 5.
    const { rows, error } = read(['id,name,size', 'a,"Ann\r', 'B', 'C, ""x""",1', 'b,Bob,2']);

    // Assess
    expect(error).toBeUndefined();
    expect(rows).toEqual([
      { line: '2', id: 'a', name: 'Ann\r\nB\nC, "x"', size: '1' },
      { line: '5', id: 'b', name: 'Bob', size: '2' },
    ]);
  });

  it('stops at a record that is not CSV, listing it by its first line after the rows before it', () => {
    // Act: the quote opened on line 4 is never closed, so lines 4 and 5 are one broken record.
    const { error } = read(['id,name,size', 'a,b', '', 'a,"b,c', 'x,y,z']);
    const { error: closing } = read(['id,name,size', 'a,"b"c,1', 'x,y']);

    // Assess
    expect(error?.errors).toEqual([
      { line: 2, message: 'has 2 fields; the header has 3' },
      {
        line: 4,
        message:
          'a quoted field opens on this record and is not closed by the end of the file; the rest of the file was not read',
      },
    ]);
    expect(closing?.errors).toEqual([
      { line: 2, message: 'field 2 has text after its closing quote; the rest of the file was not read' },
    ]);
  });

  it('rejects an empty file and a file without rows', () => {
    expect(read([]).error?.errors).toEqual([
      { line: 1, message: 'the file is empty; its first line must be the header id,name,size' },
    ]);
    expect(read(['id,name,size', '']).error?.errors).toEqual([
      { line: 1, message: 'the file has a header but no rows' },
    ]);
  });

  it('keeps the first errors and counts them all', () => {
    // Prepare
    const lines = ['id,name,size', ...Array.from({ length: 120 }, () => 'only-one-field')];

    // Act
    const { error } = read(lines);

    // Assess
    expect(error?.errorCount).toBe(120);
    expect(error?.errors).toHaveLength(MAX_REPORTED_CSV_ERRORS);
    expect(error?.errors[0]?.line).toBe(2);
    expect(error?.message).toBe('The file has 120 errors; nothing was imported');
  });
});
