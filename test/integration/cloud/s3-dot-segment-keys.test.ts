import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ExportObjects } from '../../../shared/cloud/usage-sources/s3-export-objects';
import { type S3Service, startS3Service } from '../../support/s3-service';

/**
 * S3 keys with `.` or `..` segments are not read (docs/usage-sync.md, What is refused): a URL
 * parser folds them away, so `cur/../other/report.csv` would read `other/report.csv`, outside the
 * export's prefix. Against the local S3 server, which holds that other object.
 */

let service: S3Service;

beforeAll(async () => {
  service = await startS3Service();
  service.buckets.set('acme-cur', ['other/report.csv']);
  service.contents.set('acme-cur/other/report.csv', new TextEncoder().encode('not the export'));
});

afterAll(async () => {
  await service.close();
});

const objects = () =>
  s3ExportObjects({
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    region: 'eu-west-1',
    endpoint: service.endpoint,
    maxAttempts: 1,
  });

describe('S3 keys with dot segments', () => {
  it('refuses a key whose .. segment would leave the prefix, and sends nothing', async () => {
    // Act
    const reading = objects().getText('acme-cur', 'cur/../other/report.csv', 1024);

    // Assess
    await expect(reading).rejects.toThrow(/\. or \.\. segment/);
    expect(service.received).toEqual([]);
  });

  it('still reads a key without dot segments', async () => {
    await expect(objects().getText('acme-cur', 'other/report.csv', 1024)).resolves.toBe('not the export');
  });
});
