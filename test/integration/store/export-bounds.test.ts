import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ExportBoundError,
  type ExportBounds,
  exportBounds,
} from '../../../shared/domain/usage/exports/export-bounds';
import type { ExportRows } from '../../../shared/domain/usage/exports/export-rows';
import { fileExportSource } from '../../../shared/exports/file-export-source';
import {
  type ExportSource,
  exportReadersWithin,
  readExport,
  syncExportReaders,
} from '../../../shared/exports/read-export';
import { fleetLineItems } from '../../support/export-files';
import { cur2Parquet } from '../../support/export-parquet-files';
import {
  cur2CsvText,
  enormousFieldGzipCsv,
  gzipBombCsv,
  manyFieldsCsv,
  oneRowGroupCur2Parquet,
  repeatedGzip,
} from '../../support/oversized-exports';

/**
 * The bounds on what the usage sync reads from a customer's files (docs/usage-sync.md, Bounds),
 * through the readers the sync uses (`syncExportReaders`: footer first, then the part). A bound too
 * large to reach quickly is lowered with `exportReadersWithin`, the same readers.
 */

/** A file in memory as the sync's sources give it: ranged reads and a stream in 64 KiB chunks. */
function sourceOf(bytes: Uint8Array): ExportSource {
  return {
    random: {
      byteLength: bytes.byteLength,
      slice: async (start: number, end?: number) => bytes.slice(start, end).buffer,
    },
    async *stream() {
      for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, at + 65536);
    },
  };
}

/** Reads the file as a sync part does (footer, then every batch); answers the rows read or the refusal. */
async function readAsSync(bytes: Uint8Array, bounds: ExportBounds = exportBounds) {
  const readers = bounds === exportBounds ? syncExportReaders : exportReadersWithin(bounds);
  const source = sourceOf(bytes);
  let rows = 0;
  try {
    await readers.rowGroupSizes(source);
    const opened = (await readers.openExport(source)) as ExportRows;
    for await (const batch of opened.batches) rows += batch.length;
    return { rows };
  } catch (error) {
    if (error instanceof ExportBoundError) return { rows, refused: error.boundCode, message: error.message };
    throw error;
  }
}

const lowered = (bound: Partial<ExportBounds>): ExportBounds => ({ ...exportBounds, ...bound });

describe('export bounds', () => {
  it('refuses a Parquet row group of more rows than the bound, from its footer, before reading it', async () => {
    // Prepare: 48 hours of the fleet (48 x 6 + 3 = 291 rows) in one row group, and in groups of 100.
    const items = fleetLineItems('2026-06-01T00:00:00Z', 48);
    const bounds = lowered({ rowGroupRows: 200 });

    // Act
    const oneGroup = await readAsSync(cur2Parquet(items, 1000), bounds);
    const groupsOf100 = await readAsSync(cur2Parquet(items, 100), bounds);

    // Assess
    expect(oneGroup).toEqual({
      rows: 0,
      refused: 'row_group_rows',
      message: 'row group 0 of the Parquet file has 291 rows: over the bound row_group_rows of 200 rows',
    });
    expect(groupsOf100).toEqual({ rows: 291 });
  });

  it('refuses a Parquet row group whose columns read hold more bytes than the bound', async () => {
    const bytes = cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 48), 1000);

    const read = await readAsSync(bytes, lowered({ rowGroupBytes: 1024 }));

    expect(read).toMatchObject({ rows: 0, refused: 'row_group_bytes' });
    expect(read.message).toMatch(
      /^row group 0 of the Parquet file holds \d+ bytes in the columns read: over/,
    );
  });

  it('refuses a Parquet file whose footer is longer than the bound', async () => {
    const bytes = cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 2), 1000);

    const read = await readAsSync(bytes, lowered({ parquetFooterBytes: 100 }));

    expect(read).toMatchObject({ rows: 0, refused: 'parquet_footer_bytes' });
  });

  it('refuses a gzip CSV with one 300 MiB field after reading at most the record bound (the issue file)', async () => {
    // Prepare: some 300 KB on disk.
    const bytes = enormousFieldGzipCsv(300);

    const read = await readAsSync(bytes);

    expect(bytes.byteLength).toBeLessThan(400_000);
    expect(read).toEqual({
      rows: 0,
      refused: 'csv_record_chars',
      message: 'line 2 of the file is longer: over the bound csv_record_chars of 1,048,576 characters',
    });
  });

  it('refuses a record longer than the bound made of short lines (a quoted field of line breaks)', async () => {
    // Prepare: a quoted resource id of 600,000 two-character lines: no line is long, the record is.
    const text = cur2CsvText(1);
    const header = text.slice(0, text.indexOf('\n') + 1);
    const record = `line-0,Usage,2026-06-01T00:00:00Z,2026-06-01T01:00:00Z,AmazonEC2,BoxUsage,RunInstances,"${'a\n'.repeat(600_000)}",123456789012,1,1,us-east-1,m5.large,1,{}\n`;

    const read = await readAsSync(repeatedGzip(header + record, 1));

    expect(read).toEqual({
      rows: 0,
      refused: 'csv_record_chars',
      message:
        'the record reaching line 524250 of the file is longer: over the bound csv_record_chars of 1,048,576 characters',
    });
  });

  it('stops a gzip bomb at the text bound, having read the records before it', async () => {
    // Prepare: 1 GiB of CUR 2.0 records in about 1 MB; the bound lowered to 8 MiB.
    const bytes = gzipBombCsv(1024);

    const read = await readAsSync(bytes, lowered({ csvTextBytes: 8 * 1024 * 1024 }));

    expect(bytes.byteLength).toBeLessThan(8_000_000);
    expect(read).toMatchObject({ refused: 'csv_text_bytes' });
    expect(read.message).toBe('the file is longer once gunzipped: over the bound csv_text_bytes of 8 MiB');
    // What came before the bound was read as rows, batch by batch: the file is a real export.
    expect(read.rows).toBeGreaterThan(0);
  });

  it('refuses a record of more fields than the bound, and a line of delimiters alone', async () => {
    const fields = await readAsSync(manyFieldsCsv(exportBounds.csvRecordFields + 1));
    const delimiters = await readAsSync(manyFieldsCsv(2 * 1024 * 1024));

    expect(fields).toEqual({
      rows: 0,
      refused: 'csv_record_fields',
      message: 'record 2 of the file has 5001 fields: over the bound csv_record_fields of 5,000 fields',
    });
    expect(delimiters).toMatchObject({ rows: 0, refused: 'csv_record_chars' });
  });

  it("refuses the same files in admin import-usage's reading of a local file", async () => {
    // Prepare: the 300 MiB field, and a row group of 1,000,001 rows (bin/admin/import-commands.ts
    // reads a local file with fileExportSource and readExport).
    const dir = await mkdtemp(join(tmpdir(), 'export-bounds-import-'));
    const read = async (name: string, bytes: Uint8Array) => {
      const path = join(dir, name);
      await writeFile(path, bytes);
      const source = await fileExportSource(path);
      try {
        const rows = (await readExport(source)) as ExportRows;
        for await (const _batch of rows.batches);
        return 'read';
      } catch (error) {
        return error instanceof ExportBoundError ? error.boundCode : String(error);
      } finally {
        await source.close();
      }
    };

    // Act
    const field = await read('field.csv.gz', enormousFieldGzipCsv(300));
    const rowGroup = await read('group.parquet', oneRowGroupCur2Parquet(1_000_001));
    await rm(dir, { recursive: true, force: true });

    // Assess
    expect({ field, rowGroup }).toEqual({ field: 'csv_record_chars', rowGroup: 'row_group_rows' });
  });

  it('reads a CSV export inside every bound whole, gzip or not', async () => {
    // 24 hours of the fleet: 6 lines an hour and 3 a file.
    const text = cur2CsvText(24);

    const plain = await readAsSync(new TextEncoder().encode(text));
    const gzip = await readAsSync(repeatedGzip(text, 1));

    expect(plain).toEqual({ rows: 24 * 6 + 3 });
    expect(gzip).toEqual({ rows: 24 * 6 + 3 });
  });
});
