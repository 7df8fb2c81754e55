import { describe, expect, it } from 'vitest';
import { readTextAtMost } from '../../../shared/cloud/usage-sources/read-at-most';
import { exportBounds } from '../../../shared/domain/usage/exports/export-bounds';
import {
  currentExportFiles,
  type ExportLayout,
  type ListedObject,
} from '../../../shared/domain/usage-sources/export-files';

/**
 * Manifests are read within their bounds (docs/usage-sync.md, Bounds): one larger than the bound,
 * whatever the listing said of its size, or naming more files than the bound, stands refused for
 * its period; the other periods' files are answered as before.
 */

const layout: ExportLayout = { kind: 'data-exports', bucket: 'acme-cur', prefix: 'cur', name: 'hourly' };
const manifestOf = (period: string) => `cur/hourly/metadata/BILLING_PERIOD=${period}/hourly-Manifest.json`;
const dataOf = (period: string) => `cur/hourly/data/BILLING_PERIOD=${period}/hourly-00001.parquet`;
const listed = (key: string, size: number): ListedObject => ({
  key,
  etag: `etag-${key.length}`,
  size,
  lastModified: '2026-11-02T04:00:00.000Z',
});

/** A stream of `total` bytes of `{`...: counts how many bytes were taken from it. */
function countedStream(total: number) {
  const taken = { bytes: 0 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let sent = 0; sent < total; sent += 65536) {
      const chunk = new Uint8Array(Math.min(65536, total - sent)).fill(0x20);
      taken.bytes += chunk.length;
      yield chunk;
    }
  }
  return { chunks: chunks(), taken };
}

describe('manifest bounds', () => {
  it('reads a manifest at most one byte past the bound, however long its stream', async () => {
    const stream = countedStream(64 * 1024 * 1024);

    const text = await readTextAtMost(stream.chunks, 1000);

    expect(text.length).toBe(1001);
    expect(stream.taken.bytes).toBe(65536);
  });

  it('refuses a period whose manifest reads longer than the bound though the listing said it was small', async () => {
    // Prepare: 2026-10's manifest is listed at 100 bytes but reads as 5 MiB; 2026-11's is fine.
    const objects = [
      listed(manifestOf('2026-10'), 100),
      listed(dataOf('2026-10'), 10),
      listed(manifestOf('2026-11'), 100),
      listed(dataOf('2026-11'), 10),
    ];
    const read = async (key: string, maxBytes: number) =>
      key === manifestOf('2026-10')
        ? readTextAtMost(countedStream(5 * 1024 * 1024).chunks, maxBytes)
        : JSON.stringify({ dataFiles: [`s3://acme-cur/${dataOf('2026-11')}`] });

    // Act
    const files = await currentExportFiles(layout, objects, read);

    // Assess: in key order (the data folder before the metadata folder).
    expect(files).toEqual([
      { key: dataOf('2026-11'), etag: objects[3]?.etag, size: 10, billingPeriod: '2026-11' },
      {
        key: manifestOf('2026-10'),
        etag: objects[0]?.etag,
        size: 100,
        billingPeriod: '2026-10',
        refused: {
          code: 'manifest_bytes',
          reason: 'the manifest read is longer than listed: over the bound manifest_bytes of 4 MiB',
        },
      },
    ]);
  });

  it('names as many files as the bound allows, and refuses one more', async () => {
    const names = (count: number) =>
      JSON.stringify({
        dataFiles: Array.from(
          { length: count },
          (_, index) => `s3://acme-cur/cur/hourly/data/x/${index}.parquet`,
        ),
      });
    const objects = [
      listed(manifestOf('2026-10'), 100),
      ...Array.from({ length: exportBounds.filesPerPeriod }, (_, index) =>
        listed(`cur/hourly/data/x/${index}.parquet`, 10),
      ),
    ];

    const atBound = await currentExportFiles(layout, objects, async () => names(exportBounds.filesPerPeriod));
    const over = await currentExportFiles(layout, objects, async () =>
      names(exportBounds.filesPerPeriod + 1),
    );

    expect(atBound).toHaveLength(exportBounds.filesPerPeriod);
    expect(atBound.some((file) => file.refused)).toBe(false);
    expect(over).toEqual([
      expect.objectContaining({
        key: manifestOf('2026-10'),
        refused: expect.objectContaining({ code: 'files_per_period' }),
      }),
    ]);
  });
});
