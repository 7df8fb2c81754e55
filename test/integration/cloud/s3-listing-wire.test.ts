/**
 * The S3 call on the wire (s3-object-listing.ts): ListObjectsV2 in S3's REST-XML protocol against a
 * local server, through the adapter's listing and the whole AWS checklist, with the role's
 * credentials. The signature is checked from scratch (test/support/aws-json-service.ts), not by the
 * signer that made it. STS, which only hands the adapter its credentials, is mocked.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AwsAccountSession, runAwsChecks } from '../../../shared/cloud/verifiers/aws-verification';
import { s3BucketUrl, s3ObjectListing } from '../../../shared/cloud/verifiers/s3-object-listing';
import { checkSigV4 } from '../../support/aws-json-service';
import { mockedRoleSts, roleCredentials, roleSessionWith } from '../../support/aws-role-session';
import { type S3Service, s3ErrorBody, startS3Service } from '../../support/s3-service';

const location = { bucket: 'acme-cur', prefix: 'cur/hourly', region: 'eu-west-1' };
const delivered = [
  'cur/hourly/data/BILLING_PERIOD=2026-11/hourly-00001.snappy.parquet',
  'cur/hourly/metadata/BILLING_PERIOD=2026-11/hourly-Manifest.json',
];

let service: S3Service;
const sts = mockedRoleSts();

beforeAll(async () => {
  service = await startS3Service();
});

afterAll(async () => {
  sts.restore();
  await service.close();
});

beforeEach(() => {
  service.received.length = 0;
  service.interruptions.length = 0;
  service.buckets.clear();
  service.buckets.set('acme-cur', [...delivered, 'other/report.csv']);
  sts.reset();
});

function roleSession(maxAttempts = 1): Promise<AwsAccountSession> {
  return roleSessionWith({
    s3: (credentials, region) =>
      s3ObjectListing({ credentials, region, endpoint: service.endpoint, maxAttempts }),
  });
}

describe('the S3 listing on the wire', () => {
  it('lists the keys under the prefix with one GET of ListObjectsV2', async () => {
    // Prepare
    const session = await roleSession();

    // Act
    const listed = await session.listObjects(location);

    // Assess
    expect(listed).toEqual({ keys: delivered });
    expect(service.received).toHaveLength(1);
    const [request] = service.received;
    expect(request?.method).toBe('GET');
    const url = new URL(request?.path ?? '', 'http://s3.local');
    expect(url.pathname).toBe('/acme-cur');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'list-type': '2',
      prefix: 'cur/hourly',
      'max-keys': '1000',
    });
  });

  it('signs with the role credentials for s3 in the bucket region (SigV4 checked from scratch)', async () => {
    // Prepare
    const session = await roleSession();

    // Act
    await session.listObjects(location);

    // Assess
    const [request] = service.received;
    expect(request?.headers['x-amz-security-token']).toBe(roleCredentials.sessionToken);
    expect(request?.headers['x-amz-content-sha256']).toBe(createHash('sha256').update('').digest('hex'));
    expect(request && checkSigV4(request, roleCredentials.secretAccessKey)).toEqual({
      accessKeyId: roleCredentials.accessKeyId,
      region: 'eu-west-1',
      service: 's3',
      valid: true,
    });
    expect(request && checkSigV4(request, 'another-secret').valid).toBe(false);
  });

  it('reads one object, none, and keys holding characters XML escapes', async () => {
    // Prepare
    service.buckets.set('one', ['cur/hourly/a&b <c>.parquet']);
    service.buckets.set('empty', []);
    const session = await roleSession();

    // Act
    const one = await session.listObjects({ ...location, bucket: 'one' });
    const none = await session.listObjects({ ...location, bucket: 'empty' });

    // Assess
    expect(one).toEqual({ keys: ['cur/hourly/a&b <c>.parquet'] });
    expect(none).toEqual({ keys: [] });
  });

  it('answers the first page only: at most 1,000 keys', async () => {
    // Prepare
    const many = Array.from(
      { length: 1_200 },
      (_, i) => `cur/hourly/data/part-${String(i).padStart(5, '0')}.parquet`,
    );
    service.buckets.set('acme-cur', many);
    const session = await roleSession();

    // Act
    const listed = await session.listObjects(location);

    // Assess
    expect(listed.keys).toEqual(many.slice(0, 1_000));
    expect(service.received).toHaveLength(1);
  });

  it("throws S3's error with its code as the name and its message, without trying a refusal again", async () => {
    // Prepare
    service.interruptions.push({ status: 403, body: s3ErrorBody('AccessDenied', 'Access Denied') });
    const session = await roleSession(2);

    // Act
    const listing = session.listObjects(location);

    // Assess
    await expect(listing).rejects.toMatchObject({ name: 'AccessDenied', message: 'Access Denied' });
    expect(service.received).toHaveLength(1);
  });

  it('names a missing bucket NoSuchBucket', async () => {
    // Prepare
    const session = await roleSession();

    // Act
    const listing = session.listObjects({ ...location, bucket: 'gone' });

    // Assess
    await expect(listing).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('tries a SlowDown once more, as the SDK clients do with maxAttempts 2', async () => {
    // Prepare
    service.interruptions.push({
      status: 503,
      body: s3ErrorBody('SlowDown', 'Please reduce your request rate.'),
    });
    const session = await roleSession(2);

    // Act
    const listed = await session.listObjects(location);

    // Assess
    expect(listed).toEqual({ keys: delivered });
    expect(service.received).toHaveLength(2);
  });

  it('gives up after maxAttempts, and names an answer without an XML error by its status', async () => {
    // Prepare
    service.interruptions.push(
      { status: 502, body: '<html>Bad Gateway</html>' },
      { status: 502, body: 'Bad Gateway' },
    );
    const session = await roleSession(2);

    // Act
    const listing = session.listObjects(location);

    // Assess
    await expect(listing).rejects.toMatchObject({
      name: 'InternalError',
      message: 'InternalError (HTTP 502)',
    });
    expect(service.received).toHaveLength(2);
  });

  it("feeds the checklist: the bucket readable and the export delivered, or missing on S3's refusal", async () => {
    // Prepare
    const checks = (maxAttempts: number) =>
      runAwsChecks(
        {
          assumeRole: async () => ({
            ...(await roleSession(maxAttempts)),
            findDataExport: async () => ({
              name: 'hourly',
              source: 'data-exports',
              granularity: 'HOURLY',
              format: 'parquet',
              includesResourceIds: true,
              ...location,
            }),
            findLegacyReport: async () => null,
            queryCostExplorer: async () => undefined,
            dryRunReservationPurchase: async () => undefined,
          }),
        },
        {
          accountId: '444455556666',
          roleArn: 'arn:aws:iam::444455556666:role/commitment-planning-purchaser',
          externalId: 'cpo-0123456789abcdef0123456789abcdef',
          existingCur: null,
        },
      );

    // Act
    const readable = await checks(1);
    service.interruptions.push({ status: 403, body: s3ErrorBody('AccessDenied', 'Access Denied') });
    const refused = await checks(1);

    // Assess
    const statusOf = (items: { feature: string; status: string }[], feature: string) =>
      items.find((item) => item.feature === feature)?.status;
    expect(statusOf(readable, 'cur_bucket_readable')).toBe('available');
    expect(statusOf(readable, 'cur_delivered')).toBe('available');
    expect(statusOf(refused, 'cur_bucket_readable')).toBe('missing');
  });
});

describe('the bucket addressing', () => {
  it('puts a bucket in the host name where its name allows, and in the path otherwise', () => {
    // Act and Assess
    expect(s3BucketUrl('acme-cur', 'eu-west-1').href).toBe('https://acme-cur.s3.eu-west-1.amazonaws.com/');
    expect(s3BucketUrl('acme.cur', 'eu-west-1').href).toBe('https://s3.eu-west-1.amazonaws.com/acme.cur');
    expect(s3BucketUrl('acme-cur', 'us-east-1', 'http://127.0.0.1:9000/').href).toBe(
      'http://127.0.0.1:9000/acme-cur',
    );
  });
});
