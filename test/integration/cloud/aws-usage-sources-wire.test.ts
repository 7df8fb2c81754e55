/**
 * The usage sync's AWS reads on the wire (shared/cloud/usage-sources/): S3 against a local server
 * speaking S3's REST-XML (listing past 1,000 keys, manifests, ranged and streamed GetObject with
 * the listed ETag), and the describe calls through the real SDK clients against a local server
 * answering EC2's and RDS's query protocols and Savings Plans' REST-JSON as the API reference
 * shows them. STS, which only hands the adapter its credentials, is mocked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EC2Client } from '@aws-sdk/client-ec2';
import { RDSClient } from '@aws-sdk/client-rds';
import { SavingsplansClient } from '@aws-sdk/client-savingsplans';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/nested-clients/sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AwsUsageAccount, UsageSourceSession } from '../../../shared/app/ports/usage-sync';
import { awsUsageClients, awsUsageSources } from '../../../shared/cloud/usage-sources/aws-usage-sources';
import { s3ExportObjects } from '../../../shared/cloud/usage-sources/s3-export-objects';
import { checkSigV4 } from '../../support/aws-json-service';
import { roleCredentials } from '../../support/aws-role-session';
import { type S3Service, s3Etag, startS3Service } from '../../support/s3-service';

const account: AwsUsageAccount = {
  accountId: '444455556666',
  roleArn: 'arn:aws:iam::444455556666:role/commitment-planning-purchaser',
  externalId: 'cpo-0123456789abcdef0123456789abcdef',
  export: { source: 'data-exports', name: 'hourly', bucket: 'acme-cur', prefix: 'cur', region: 'eu-west-1' },
};
const dataKey = (n: number) =>
  `cur/hourly/data/BILLING_PERIOD=2026-11/hourly-${String(n).padStart(5, '0')}.snappy.parquet`;
const manifestKey = 'cur/hourly/metadata/BILLING_PERIOD=2026-11/hourly-Manifest.json';

/** A local server answering the describe calls: what each operation answers, and what was asked. */
interface DescribeService {
  readonly endpoint: string;
  readonly asked: { operation: string; params: Record<string, unknown> }[];
  close(): Promise<void>;
}

const ec2Answer = `<?xml version="1.0" encoding="UTF-8"?>
<DescribeReservedInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>59dbff89-35bd-4eac-99ed-be587EXAMPLE</requestId>
  <reservedInstancesSet>
    <item>
      <reservedInstancesId>e5a2ff3b-7d14-494f-90af-0b5d0EXAMPLE</reservedInstancesId>
      <instanceType>m5.xlarge</instanceType>
      <availabilityZone>eu-west-1b</availabilityZone>
      <start>2026-03-01T10:00:00.000Z</start>
      <end>2027-03-01T10:00:00.000Z</end>
      <duration>31536000</duration>
      <fixedPrice>1007.0</fixedPrice>
      <usagePrice>0.0</usagePrice>
      <instanceCount>3</instanceCount>
      <productDescription>Windows (Amazon VPC)</productDescription>
      <state>active</state>
      <instanceTenancy>dedicated</instanceTenancy>
      <currencyCode>USD</currencyCode>
      <offeringType>Partial Upfront</offeringType>
      <recurringCharges><item><frequency>Hourly</frequency><amount>0.115</amount></item></recurringCharges>
      <offeringClass>convertible</offeringClass>
      <scope>Availability Zone</scope>
    </item>
  </reservedInstancesSet>
</DescribeReservedInstancesResponse>`;

const rdsReservation = (id: string, state: string) => `<ReservedDBInstance>
  <ReservedDBInstanceId>${id}</ReservedDBInstanceId>
  <DBInstanceClass>db.r5.large</DBInstanceClass>
  <StartTime>2026-01-15T00:00:00Z</StartTime>
  <Duration>31536000</Duration>
  <FixedPrice>0.0</FixedPrice>
  <UsagePrice>0.0</UsagePrice>
  <CurrencyCode>USD</CurrencyCode>
  <DBInstanceCount>2</DBInstanceCount>
  <ProductDescription>postgresql</ProductDescription>
  <OfferingType>No Upfront</OfferingType>
  <MultiAZ>true</MultiAZ>
  <State>${state}</State>
  <RecurringCharges><RecurringCharge><RecurringChargeAmount>0.198</RecurringChargeAmount><RecurringChargeFrequency>Hourly</RecurringChargeFrequency></RecurringCharge></RecurringCharges>
</ReservedDBInstance>`;

const rdsAnswer = (marker: string | null, reservations: string) => `<?xml version="1.0" encoding="UTF-8"?>
<DescribeReservedDBInstancesResponse xmlns="http://rds.amazonaws.com/doc/2014-10-31/">
  <DescribeReservedDBInstancesResult>
    ${marker ? `<Marker>${marker}</Marker>` : ''}
    <ReservedDBInstances>${reservations}</ReservedDBInstances>
  </DescribeReservedDBInstancesResult>
  <ResponseMetadata><RequestId>0dd9e5a9-ad84-4fd2-8b8e-2d5e4EXAMPLE</RequestId></ResponseMetadata>
</DescribeReservedDBInstancesResponse>`;

const savingsPlan = {
  savingsPlanId: 'sp-0123abcd',
  savingsPlanArn: 'arn:aws:savingsplans::444455556666:savingsplan/sp-0123abcd',
  start: '2026-02-01T00:00:00.000Z',
  end: '2029-02-01T00:00:00.000Z',
  state: 'active',
  region: 'eu-west-1',
  ec2InstanceFamily: 'm5',
  savingsPlanType: 'EC2Instance',
  paymentOption: 'Partial Upfront',
  currency: 'USD',
  commitment: '2.5',
  upfrontPaymentAmount: '32850.0',
  recurringPaymentAmount: '1.25',
  termDurationInSeconds: 94608000,
};

async function startDescribeService(): Promise<DescribeService> {
  const asked: DescribeService['asked'] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (request.url === '/DescribeSavingsPlans') {
      const params = JSON.parse(body) as Record<string, unknown>;
      asked.push({ operation: 'DescribeSavingsPlans', params });
      const first = !params.nextToken;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          first
            ? { savingsPlans: [savingsPlan], nextToken: 'page-2' }
            : {
                savingsPlans: [
                  { ...savingsPlan, savingsPlanId: 'sp-compute', savingsPlanType: 'Compute', region: '' },
                ],
              },
        ),
      );
      return;
    }
    const params = Object.fromEntries(new URLSearchParams(body));
    asked.push({ operation: params.Action ?? '', params });
    response.writeHead(200, { 'content-type': 'text/xml' });
    if (params.Action === 'DescribeReservedInstances') return response.end(ec2Answer);
    if (params.Action === 'DescribeReservedDBInstances') {
      return response.end(
        params.Marker
          ? rdsAnswer(null, rdsReservation('retired-one', 'retired'))
          : rdsAnswer('page-2', rdsReservation('customerSpecifiedID', 'active')),
      );
    }
    response.writeHead(400);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let s3: S3Service;
let describe_: DescribeService;
const sts = mockClient(STSClient);

beforeAll(async () => {
  s3 = await startS3Service();
  describe_ = await startDescribeService();
});

afterAll(async () => {
  sts.restore();
  await s3.close();
  await describe_.close();
});

beforeEach(() => {
  s3.received.length = 0;
  s3.buckets.clear();
  s3.contents.clear();
  describe_.asked.length = 0;
  sts.reset();
  sts.on(AssumeRoleCommand).resolves({
    Credentials: {
      AccessKeyId: roleCredentials.accessKeyId,
      SecretAccessKey: roleCredentials.secretAccessKey,
      SessionToken: roleCredentials.sessionToken,
      Expiration: new Date(Date.now() + 3_600_000),
    },
  });
});

function put(key: string, bytes: Uint8Array | string): void {
  const keys = s3.buckets.get('acme-cur') ?? [];
  s3.buckets.set('acme-cur', [...keys, key]);
  s3.contents.set(`acme-cur/${key}`, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
}

function connect(): Promise<UsageSourceSession> {
  const endpoint = describe_.endpoint;
  return awsUsageSources({
    region: 'eu-west-1',
    reservationRegions: ['eu-west-1'],
    clients: {
      ...awsUsageClients,
      s3: (credentials, region) =>
        s3ExportObjects({ credentials, region, endpoint: s3.endpoint, maxAttempts: 1 }),
      ec2: (credentials, region) => new EC2Client({ region, credentials, endpoint, maxAttempts: 1 }),
      rds: (credentials, region) => new RDSClient({ region, credentials, endpoint, maxAttempts: 1 }),
      savingsPlans: (credentials) =>
        new SavingsplansClient({ region: 'us-east-1', credentials, endpoint, maxAttempts: 1 }),
    },
  }).connect(account);
}

describe('the export files of an AWS account', () => {
  it('assumes the role with the external id as the usage sync, for an hour', async () => {
    // Act
    await connect();

    // Assess
    expect(sts.commandCalls(AssumeRoleCommand)[0]?.args[0].input).toEqual({
      RoleArn: account.roleArn,
      RoleSessionName: 'commitment-planning-usage-sync',
      ExternalId: account.externalId,
      DurationSeconds: 3600,
    });
  });

  it('lists past 1,000 keys and answers the files the manifest names, with their ETag and size', async () => {
    // Prepare: 1,200 data files, the manifest naming the last two.
    for (let n = 1; n <= 1200; n++) put(dataKey(n), `file ${n}`);
    put(
      manifestKey,
      JSON.stringify({ dataFiles: [dataKey(1199), dataKey(1200)].map((key) => `s3://acme-cur/${key}`) }),
    );
    const session = await connect();

    // Act
    const files = await session.listExportFiles();

    // Assess
    expect(files).toEqual([
      {
        key: dataKey(1199),
        etag: s3Etag(new TextEncoder().encode('file 1199')),
        size: 9,
        billingPeriod: '2026-11',
      },
      {
        key: dataKey(1200),
        etag: s3Etag(new TextEncoder().encode('file 1200')),
        size: 9,
        billingPeriod: '2026-11',
      },
    ]);
    const listings = s3.received.filter((request) => request.operation === 'ListObjectsV2');
    expect(listings).toHaveLength(2);
    expect(new URL(listings[1]?.path ?? '', 'http://s3.local').searchParams.get('continuation-token')).toBe(
      dataKey(1000),
    );
    const manifestRead = s3.received.find((request) => request.operation === 'GetObject');
    expect(manifestRead?.path).toBe(
      '/acme-cur/cur/hourly/metadata/BILLING_PERIOD%3D2026-11/hourly-Manifest.json',
    );
    expect(manifestRead && checkSigV4(manifestRead, roleCredentials.secretAccessKey)).toMatchObject({
      region: 'eu-west-1',
      service: 's3',
      valid: true,
    });
  });

  it('reads a file by ranges and as one stream, naming the listed ETag in each read', async () => {
    // Prepare
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => i % 251);
    put(dataKey(1), bytes);
    put(manifestKey, JSON.stringify({ dataFiles: [`s3://acme-cur/${dataKey(1)}`] }));
    const session = await connect();
    const [file] = await session.listExportFiles();
    s3.received.length = 0;

    // Act
    const source = session.openExportFile(file as NonNullable<typeof file>);
    const tail = new Uint8Array(await source.random.slice(4990));
    const middle = new Uint8Array(await source.random.slice(100, 110));
    const streamed: number[] = [];
    for await (const chunk of source.stream()) streamed.push(...chunk);

    // Assess
    expect(source.random.byteLength).toBe(5000);
    expect([...tail]).toEqual([...bytes.subarray(4990)]);
    expect([...middle]).toEqual([...bytes.subarray(100, 110)]);
    expect(streamed).toEqual([...bytes]);
    expect(s3.received.map((request) => [request.headers.range, request.headers['if-match']])).toEqual([
      ['bytes=4990-4999', `"${file?.etag}"`],
      ['bytes=100-109', `"${file?.etag}"`],
      [undefined, `"${file?.etag}"`],
    ]);
  });

  it('fails a read of a file delivered again since it was listed, with S3 PreconditionFailed', async () => {
    // Prepare
    put(dataKey(1), 'first delivery');
    put(manifestKey, JSON.stringify({ dataFiles: [`s3://acme-cur/${dataKey(1)}`] }));
    const session = await connect();
    const [file] = await session.listExportFiles();
    s3.contents.set(`acme-cur/${dataKey(1)}`, new TextEncoder().encode('second delivery'));

    // Act
    const read = session.openExportFile(file as NonNullable<typeof file>).random.slice(0, 4);

    // Assess
    await expect(read).rejects.toMatchObject({ name: 'PreconditionFailed' });
  });

  it('reads a legacy CUR report through its period manifest', async () => {
    // Prepare
    const legacyKey = 'cur/daily/20261101-20261201/0f3c7a2e/daily-1.csv.gz';
    put(legacyKey, 'gzip bytes');
    put('cur/daily/20261101-20261201/daily-Manifest.json', JSON.stringify({ reportKeys: [legacyKey] }));
    const session = await awsUsageSources({
      region: 'eu-west-1',
      reservationRegions: [],
      clients: {
        ...awsUsageClients,
        s3: (credentials, region) =>
          s3ExportObjects({ credentials, region, endpoint: s3.endpoint, maxAttempts: 1 }),
      },
    }).connect({ ...account, export: { ...account.export, source: 'legacy-cur', name: 'daily' } });

    // Act
    const files = await session.listExportFiles();

    // Assess
    expect(files.map((file) => [file.key, file.billingPeriod])).toEqual([[legacyKey, '2026-11']]);
  });
});

describe('the owned commitments of an AWS account', () => {
  it('reads active EC2 and RDS reservations per region and active savings plans, page by page', async () => {
    // Prepare
    const session = await connect();

    // Act
    const owned = await session.ownedCommitments();

    // Assess
    expect(
      owned.map((commitment) => [commitment.contractType, commitment.instanceType, commitment.quantity]),
    ).toEqual([
      ['convertible_ris', 'm5.xlarge', 3],
      ['db_ris', 'db.r5.large', 2],
      ['instance_plans', null, 0],
      ['compute_plans', null, 0],
    ]);
    expect(owned[0]).toMatchObject({
      region: 'eu-west-1',
      operatingSystem: 'Windows',
      tenancy: 'Dedicated',
      availabilityZone: 'eu-west-1b',
      upfrontCost: 1007,
      recurringCost: 0.115,
      start: '2026-03-01T10:00:00Z',
      end: '2027-03-01T10:00:00Z',
    });
    expect(owned[1]).toMatchObject({
      operatingSystem: 'PostgreSQL',
      deploymentOption: 'Multi-AZ',
      recurringCost: 0.198,
    });
    expect(owned[2]).toMatchObject({ instanceFamily: 'm5', hourlyCommitment: 2.5, upfrontCost: 32_850 });
    expect(describe_.asked.map((call) => call.operation).sort()).toEqual([
      'DescribeReservedDBInstances',
      'DescribeReservedDBInstances',
      'DescribeReservedInstances',
      'DescribeSavingsPlans',
      'DescribeSavingsPlans',
    ]);
    const ec2 = describe_.asked.find((call) => call.operation === 'DescribeReservedInstances');
    expect(ec2?.params).toMatchObject({ 'Filter.1.Name': 'state', 'Filter.1.Value.1': 'active' });
    const plans = describe_.asked.filter((call) => call.operation === 'DescribeSavingsPlans');
    expect(plans.map((call) => [call.params.states, call.params.nextToken])).toEqual([
      [['active'], undefined],
      [['active'], 'page-2'],
    ]);
  });
});
