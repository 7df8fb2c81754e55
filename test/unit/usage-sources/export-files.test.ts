import { describe, expect, it } from 'vitest';
import {
  bareEtag,
  currentExportFiles,
  currentManifests,
  type ExportLayout,
  exportListingPrefix,
  type ListedObject,
} from '../../../shared/domain/usage-sources/export-files';

const dataExports: ExportLayout = {
  kind: 'data-exports',
  bucket: 'acme-cur',
  prefix: 'cur/',
  name: 'hourly',
};
const legacy: ExportLayout = {
  kind: 'legacy-cur',
  bucket: 'acme-cur',
  prefix: 'legacy',
  name: 'daily-report',
};
const azure: ExportLayout = { kind: 'azure-cost-export', directory: 'exports', name: 'focus-daily' };

const object = (
  key: string,
  lastModified = '2026-11-02T04:00:00.000Z',
  etag = `etag-of-${key}`,
): ListedObject => ({
  key,
  etag,
  size: key.length,
  lastModified,
});

/** Reads the manifest the test wrote for a key. */
const manifests =
  (texts: Record<string, unknown>) =>
  async (key: string): Promise<string> => {
    const text = texts[key];
    if (text === undefined) throw new Error(`no manifest ${key} was read in this test`);
    return typeof text === 'string' ? text : JSON.stringify(text);
  };

describe('the export root', () => {
  it('joins prefix and name without doubled or leading slashes', () => {
    expect(exportListingPrefix(dataExports)).toBe('cur/hourly/');
    expect(exportListingPrefix({ ...dataExports, prefix: '' })).toBe('hourly/');
    expect(exportListingPrefix(azure)).toBe('exports/focus-daily/');
  });
});

describe('the current files of a Data Exports export', () => {
  it("answers each period's files the newest manifest names, with the listing's ETag and size", async () => {
    // Prepare: November was delivered twice (a file of the first delivery is left behind), October once.
    const listed = [
      object('cur/hourly/data/BILLING_PERIOD=2026-10/hourly-00001.snappy.parquet'),
      object('cur/hourly/metadata/BILLING_PERIOD=2026-10/hourly-Manifest.json', '2026-11-01T03:00:00.000Z'),
      object('cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.snappy.parquet'),
      object('cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00002.snappy.parquet'),
      object('cur/hourly/data/BILLING_PERIOD=2026-11/old-00001.snappy.parquet'),
      object('cur/hourly/metadata/BILLING_PERIOD=2026-11/hourly-Manifest.json', '2026-11-27T03:00:00.000Z'),
      object('cur/other/metadata/BILLING_PERIOD=2026-11/other-Manifest.json'),
    ];
    const read = manifests({
      'cur/hourly/metadata/BILLING_PERIOD=2026-10/hourly-Manifest.json': {
        executionId: 'e-1',
        dataFiles: ['s3://acme-cur/cur/hourly/data/BILLING_PERIOD=2026-10/hourly-00001.snappy.parquet'],
      },
      'cur/hourly/metadata/BILLING_PERIOD=2026-11/hourly-Manifest.json': {
        executionId: 'e-2',
        dataFiles: [
          's3://acme-cur/cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00002.snappy.parquet',
          's3://acme-cur/cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.snappy.parquet',
        ],
      },
    });

    // Act
    const files = await currentExportFiles(dataExports, listed, read);

    // Assess
    expect(files).toEqual([
      {
        key: 'cur/hourly/data/BILLING_PERIOD=2026-10/hourly-00001.snappy.parquet',
        etag: 'etag-of-cur/hourly/data/BILLING_PERIOD=2026-10/hourly-00001.snappy.parquet',
        size: 66,
        billingPeriod: '2026-10',
      },
      expect.objectContaining({
        key: 'cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.snappy.parquet',
        billingPeriod: '2026-11',
      }),
      expect.objectContaining({
        key: 'cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00002.snappy.parquet',
        billingPeriod: '2026-11',
      }),
    ]);
  });

  it('takes the newest of several executions of a period (create-new delivery)', () => {
    // Prepare
    const listed = [
      object(
        'cur/hourly/metadata/BILLING_PERIOD=2026-11/exec-b/hourly-Manifest.json',
        '2026-11-26T03:00:00Z',
      ),
      object(
        'cur/hourly/metadata/BILLING_PERIOD=2026-11/exec-a/hourly-Manifest.json',
        '2026-11-27T03:00:00Z',
      ),
    ];

    // Act
    const found = currentManifests(dataExports, listed);

    // Assess
    expect(found).toEqual([
      {
        key: 'cur/hourly/metadata/BILLING_PERIOD=2026-11/exec-a/hourly-Manifest.json',
        billingPeriod: '2026-11',
      },
    ]);
  });

  it('fails naming the manifest and the file when a named file is not delivered', async () => {
    // Prepare
    const manifestKey = 'cur/hourly/metadata/BILLING_PERIOD=2026-11/hourly-Manifest.json';
    const listed = [object(manifestKey)];
    const read = manifests({
      [manifestKey]: {
        dataFiles: ['s3://acme-cur/cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.csv.gz'],
      },
    });

    // Act
    const answer = currentExportFiles(dataExports, listed, read);

    // Assess
    await expect(answer).rejects.toMatchObject({
      name: 'ExportManifestError',
      manifestKey,
      message: `manifest ${manifestKey} names cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.csv.gz, which is not delivered`,
    });
  });

  it('refuses a manifest that is not JSON, has no list, or names another bucket', async () => {
    // Prepare
    const manifestKey = 'cur/hourly/metadata/BILLING_PERIOD=2026-11/hourly-Manifest.json';
    const listed = [object(manifestKey)];

    // Act and Assess
    await expect(
      currentExportFiles(dataExports, listed, manifests({ [manifestKey]: '{"dataFiles": [' })),
    ).rejects.toThrow('is not JSON');
    await expect(currentExportFiles(dataExports, listed, manifests({ [manifestKey]: {} }))).rejects.toThrow(
      'has no dataFiles list',
    );
    await expect(
      currentExportFiles(
        dataExports,
        listed,
        manifests({ [manifestKey]: { dataFiles: ['s3://elsewhere/x.parquet'] } }),
      ),
    ).rejects.toThrow('outside bucket acme-cur');
  });
});

describe('the current files of a legacy CUR report', () => {
  it("reads the period folder's manifest, not an assembly's copy, and its reportKeys as keys", async () => {
    // Prepare
    const manifestKey = 'legacy/daily-report/20261101-20261201/daily-report-Manifest.json';
    const assemblyCopy = 'legacy/daily-report/20261101-20261201/0f3c7a2e/daily-report-Manifest.json';
    const reportKey = 'legacy/daily-report/20261101-20261201/0f3c7a2e/daily-report-1.csv.gz';
    const listed = [
      object(manifestKey),
      object(assemblyCopy),
      object(reportKey),
      object('legacy/daily-report/20261101-20261201/old/daily-report-1.csv.gz'),
    ];
    const read = manifests({
      [manifestKey]: {
        assemblyId: '0f3c7a2e',
        reportName: 'daily-report',
        billingPeriod: { start: '20261101T000000.000Z', end: '20261201T000000.000Z' },
        bucket: 'acme-cur',
        reportKeys: [reportKey],
      },
    });

    // Act
    const files = await currentExportFiles(legacy, listed, read);

    // Assess
    expect(files).toEqual([
      { key: reportKey, etag: `etag-of-${reportKey}`, size: reportKey.length, billingPeriod: '2026-11' },
    ]);
  });
});

describe('the current files of an Azure Cost Management export', () => {
  it("reads the newest run's manifest.json and its blobs' names", async () => {
    // Prepare
    const older = 'exports/focus-daily/20261101-20261130/run-1/manifest.json';
    const newer = 'exports/focus-daily/20261101-20261130/run-2/manifest.json';
    const blob = 'exports/focus-daily/20261101-20261130/run-2/part_0_0001.csv.gz';
    const listed = [
      object(older, '2026-11-20T00:00:00Z'),
      object(newer, '2026-11-27T00:00:00Z'),
      object(blob),
    ];
    const read = manifests({
      [newer]: {
        manifestVersion: '2024-04-01',
        blobCount: 1,
        blobs: [{ blobName: blob, byteCount: 1024, dataRowCount: 10 }],
      },
    });

    // Act
    const files = await currentExportFiles(azure, listed, read);

    // Assess
    expect(files).toEqual([
      { key: blob, etag: `etag-of-${blob}`, size: blob.length, billingPeriod: '2026-11' },
    ]);
  });
});

describe('ETags', () => {
  it('are kept without their quotes or weak marker', () => {
    expect(bareEtag('"9b2cf535f27731c974343645a3985328"')).toBe('9b2cf535f27731c974343645a3985328');
    expect(bareEtag('W/"0x8DC1"')).toBe('0x8DC1');
    expect(bareEtag('0x8DC1')).toBe('0x8DC1');
  });
});
