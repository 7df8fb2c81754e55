import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CsvRecord } from '../../../shared/domain/csv/csv-reader';
import { readCsvRecords } from '../../../shared/exports/csv-records';

async function* chunksOf(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let next = 0; at < bytes.length; next++) {
    const size = sizes.length === 0 ? bytes.length : (sizes[next % sizes.length] as number);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function recordsOf(text: string, sizes: readonly number[] = []): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  for await (const batch of readCsvRecords(chunksOf(Buffer.from(text), sizes))) records.push(...batch);
  return records;
}

/** A field as written: quoted when it holds what only a quoted field may, or when `quoted`. */
function written(field: string, quoted: boolean): string {
  return quoted || /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

describe('CSV records on csv-parse', () => {
  it('skips a byte order mark and empty lines, reads CRLF and LF, and numbers records by their first line', async () => {
    // Prepare: line 1 header (after the BOM), 2 a row, 3 empty, 4-6 one record whose quoted field
    // holds a CRLF and an LF, 7 a row ended by LF alone, 8 a row without a final line break.
    const text = '\uFEFFid,name\r\n1,Ann\r\n\r\n2,"B\r\nC\nD, ""e"""\r\n3,é\n4,x';

    // Act: one byte at a time, so that every delimiter and the é fall across chunks.
    const records = await recordsOf(text, [1]);

    // Assess
    expect(records).toEqual([
      { line: 1, fields: ['id', 'name'] },
      { line: 2, fields: ['1', 'Ann'] },
      { line: 4, fields: ['2', 'B\r\nC\nD, "e"'] },
      { line: 7, fields: ['3', 'é'] },
      { line: 8, fields: ['4', 'x'] },
    ]);
  });

  it('ends with the record that is not CSV, at its first line, reading no further', async () => {
    // Act
    const unclosed = await recordsOf('a,b\n1,2\n\n3,"x\n4,5\n');
    const textAfterQuote = await recordsOf('a,b\n"1"2,3\n4,5\n');
    const quoteInText = await recordsOf('a,b\n1,2\nx"y",3\n');

    // Assess
    expect(unclosed).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      {
        line: 4,
        problem:
          'a quoted field opens on this record and is not closed by the end of the file; the rest of the file was not read',
      },
    ]);
    expect(textAfterQuote.slice(1)).toEqual([
      { line: 2, problem: 'field 1 has text after its closing quote; the rest of the file was not read' },
    ]);
    expect(quoteInText.at(-1)).toEqual({
      line: 3,
      problem:
        'field 1 has a quote inside unquoted text (quote the field and double the quote); the rest of the file was not read',
    });
  });

  it('fails with the error of a source that fails', async () => {
    // Prepare
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('a,b\n1,2\n');
      throw new Error('disk gone');
    }

    // Act
    const read = (async () => {
      for await (const _ of readCsvRecords(failing()));
    })();

    // Assess
    await expect(read).rejects.toThrow('disk gone');
  });

  it('reads back any table written as RFC 4180, at the lines the writer counted, however the bytes are chunked', async () => {
    const field = fc.string({
      unit: fc.constantFrom('a', 'é', ' ', ',', '"', '\n', '\r\n', 'x'),
      maxLength: 6,
    });
    const row = fc.record({
      fields: fc.array(fc.tuple(field, fc.boolean()), { minLength: 2, maxLength: 4 }),
      ending: fc.constantFrom('\n', '\r\n'),
      emptyLinesBefore: fc.nat(2),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 5 }),
        async (rows, sizes) => {
          // Prepare: the writer counts lines as it writes them (every LF starts one).
          let text = '';
          let line = 1;
          const expected: CsvRecord[] = [];
          for (const { fields, ending, emptyLinesBefore } of rows) {
            text += ending.repeat(emptyLinesBefore);
            line += emptyLinesBefore;
            const record = fields.map(([value, quoted]) => written(value, quoted)).join(',');
            expected.push({ line, fields: fields.map(([value]) => value) });
            text += record + ending;
            line += (record.match(/\n/g)?.length ?? 0) + 1;
          }

          // Act
          const records = await recordsOf(text, sizes);

          // Assess
          expect(records).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
