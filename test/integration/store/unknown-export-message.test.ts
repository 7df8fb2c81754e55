import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/errors';
import { readCsvExport } from '../../../shared/exports/csv-export-reader';
import { focusSampleHeader, focusSampleRecords } from '../../support/focus-sample';

/**
 * The FOCUS sample as a spreadsheet saves it as "Unicode Text": UTF-16 little-endian with its byte
 * order mark, fields separated by tabs. Read as CSV (csv-parse decodes UTF-16 by its byte order
 * mark), its header is one field holding the whole first line, tabs and all.
 */
function asSpreadsheetUnicodeText(): Uint8Array {
  const header = focusSampleHeader();
  const [first] = focusSampleRecords();
  const lines = [header.join('\t'), header.map((name) => first?.[name] ?? '').join('\t')];
  return new Uint8Array(Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf16le'));
}

async function* bytesOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

describe('the message of a file in no format read', () => {
  it('quotes the header cut short and escaped, with no control byte of the file', async () => {
    // Act
    const error = await readCsvExport(bytesOf(asSpreadsheetUnicodeText())).catch((caught) => caught);

    // Assess
    expect(error).toBeInstanceOf(ValidationError);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^The file's columns are none of the formats read \(.*\); its first columns are /,
    );
    expect([...message].filter((character) => character < ' ' || character > '~')).toEqual([]);
    expect(message).toContain('AvailabilityZone\\u{9}BilledCost\\u{9}');
    expect(message).toContain('...');
    expect(message.length).toBeLessThan(400);
  });
});
