import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/errors';
import type { ExportBatch } from '../../../shared/domain/usage/exports/export-rows';
import { readCsvExport } from '../../../shared/exports/csv-export-reader';
import { readParquetExport } from '../../../shared/exports/parquet-export-reader';
import { fleetLineItems } from '../../support/export-files';
import { cur2Parquet } from '../../support/export-parquet-files';

async function* bytesOf(...chunks: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
}

async function allBatches(batches: AsyncIterable<ExportBatch>): Promise<ExportBatch[]> {
  const all: ExportBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

describe('export file readers', () => {
  it('reads a CUR 2.0 Parquet file row group by row group, its product MAP column as objects', async () => {
    // Prepare: 10 hours: 27 instance-hour lines (the web instance 5 x 1 + 5 x 2, the Windows one at
    // hours 8 and 9, the database 10), 3 other lines an hour and 3 of the file: 27 + 30 + 3 = 60.
    const bytes = cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 10), 20);
    const file = {
      byteLength: bytes.byteLength,
      slice: async (start: number, end?: number) => bytes.slice(start, end).buffer,
    };

    // Act
    const rows = await readParquetExport(file);
    const batches = await allBatches(rows.batches);

    // Assess
    expect(rows.format).toBe('cur2');
    expect(batches.map((batch) => batch.length).every((length) => length <= 20)).toBe(true);
    expect(batches.reduce((sum, batch) => sum + batch.length, 0)).toBe(60);
    expect(batches[0]?.column('product')?.[0]).toEqual({
      region: 'us-east-1',
      operating_system: 'Linux',
      tenancy: 'Shared',
    });
    // A column no format maps from is not read.
    expect(batches[0]?.column('identity_line_item_id')).toBeUndefined();
  });

  it('reads gzip CSV with quoted fields across lines, each column by its header name', async () => {
    // Prepare: the header in another order than the dictionary's, a description holding a line break.
    const csv = [
      'ChargePeriodStart,ConsumedQuantity,ChargeDescription,ChargeCategory',
      '2024-09-01 00:00:00,1,"two\nlines, and a comma",Usage',
      '2024-09-01 01:00:00,0.5,plain,Usage',
    ].join('\n');

    // Act
    const rows = await readCsvExport(bytesOf(gzipSync(csv).subarray(0, 10), gzipSync(csv).subarray(10)));
    if (rows.format === 'usage-csv') throw new Error('read as the usage CSV');
    const [batch] = await allBatches(rows.batches);

    // Assess
    expect(rows.format).toBe('focus');
    expect(batch?.length).toBe(2);
    expect(batch?.column('ChargeDescription')).toEqual(['two\nlines, and a comma', 'plain']);
    expect(batch?.column('ConsumedQuantity')).toEqual(['1', '0.5']);
  });

  it('refuses a file whose columns are no format read, naming some of them', async () => {
    // Act
    const read = readCsvExport(bytesOf('a,b,c\n1,2,3\n'));

    // Assess
    await expect(read).rejects.toBeInstanceOf(ValidationError);
    await expect(read).rejects.toThrow(/its first columns are a, b, c/);
  });

  it('refuses a --format the file has not the columns of, naming the missing ones', async () => {
    // Act
    const read = readCsvExport(bytesOf('ChargeCategory,ChargePeriodStart,ConsumedQuantity\n'), 'cur2');

    // Assess
    await expect(read).rejects.toThrow(
      'The file is not cur2: it has no column line_item_line_item_type, line_item_usage_start_date, line_item_usage_amount',
    );
  });
});
