import { BCMDataExportsClient, GetExportCommand, ListExportsCommand } from '@aws-sdk/client-bcm-data-exports';
import { CostExplorerClient, GetCostAndUsageCommand } from '@aws-sdk/client-cost-explorer';
import {
  DescribeReservedInstancesOfferingsCommand,
  EC2Client,
  PurchaseReservedInstancesOfferingCommand,
} from '@aws-sdk/client-ec2';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/nested-clients/sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AwsVerificationRequest } from '../../../shared/app/ports';
import {
  type AwsClientFactory,
  awsSdkProbe,
  sdkClients,
} from '../../../shared/cloud/verifiers/aws-sdk-probe';
import { runAwsChecks } from '../../../shared/cloud/verifiers/aws-verification';
import type { LegacyCurReports } from '../../../shared/cloud/verifiers/legacy-cur-reports';
import type { S3ObjectListing } from '../../../shared/cloud/verifiers/s3-object-listing';

/**
 * The AWS adapter against mocked SDK clients: one stateful handler per call, answering from an
 * account the test sets up and answering errors as AWS names them.
 */

const request: AwsVerificationRequest = {
  accountId: '444455556666',
  roleArn: 'arn:aws:iam::444455556666:role/commitment-planning-purchaser',
  externalId: 'cpo-0123456789abcdef0123456789abcdef',
  existingCur: { region: 'eu-west-1', bucket: 'acme-cur', prefix: 'cur', reportName: 'hourly' },
};

interface Account {
  externalId: string;
  exportsError: string | null;
  legacyReports: {
    ReportName: string;
    TimeUnit: string;
    Format: string;
    AdditionalSchemaElements: string[];
  }[];
  dataExport: { granularity: string; format: 'PARQUET' | 'TEXT_OR_CSV'; resources: 'TRUE' | 'FALSE' } | null;
  bucketError: string | null;
  keys: string[];
  costExplorerError: string | null;
  purchaseAllowed: boolean;
}

let account: Account;

const awsError = (name: string, message = `${name} from the mock`) =>
  Object.assign(new Error(message), { name });

const sts = mockClient(STSClient);
const exportsClient = mockClient(BCMDataExportsClient);
const ce = mockClient(CostExplorerClient);
const ec2 = mockClient(EC2Client);

/** The credentials each client was built with, to check the session's calls use the role's. */
const clientCredentials: unknown[] = [];
/**
 * CUR's report definitions as the account holds them. The service's wire form (the call
 * legacy-cur-reports.ts makes) is tested against a local server in
 * test/integration/cloud/legacy-cur-wire.test.ts; here the checks read what it answers.
 */
const legacyCur = (): LegacyCurReports => ({
  async describeReportDefinitions() {
    if (account.exportsError) throw awsError(account.exportsError);
    return {
      ReportDefinitions: account.legacyReports.map((report) => ({
        ...report,
        S3Bucket: 'acme-cur',
        S3Prefix: 'cur',
        S3Region: 'eu-west-1',
      })),
    };
  },
});

/** What each S3 listing asked for, and the region of the listing's client. */
const listings: { bucket: string; prefix: string; maxKeys: number; region: string }[] = [];
/**
 * S3's objects as the account holds them. The call's wire form (s3-object-listing.ts) is tested
 * against a local server in test/integration/cloud/s3-listing-wire.test.ts.
 */
const s3Listing = (region: string): S3ObjectListing => ({
  async listObjectsV2(input) {
    listings.push({ ...input, region });
    if (account.bucketError) throw awsError(account.bucketError);
    return { keys: account.keys.filter((key) => key.startsWith(input.prefix)) };
  },
});

const recordingClients: AwsClientFactory = {
  ...sdkClients,
  cur: (credentials) => {
    clientCredentials.push(credentials);
    return legacyCur();
  },
  dataExports: (credentials) => {
    clientCredentials.push(credentials);
    return sdkClients.dataExports(credentials);
  },
  s3: (credentials, region) => {
    clientCredentials.push(credentials);
    return s3Listing(region);
  },
};

beforeEach(() => {
  account = {
    externalId: request.externalId,
    exportsError: null,
    legacyReports: [],
    dataExport: { granularity: 'HOURLY', format: 'PARQUET', resources: 'TRUE' },
    bucketError: null,
    keys: ['cur/hourly/data/BILLING_PERIOD=2026-11/part-0.snappy.parquet'],
    costExplorerError: null,
    purchaseAllowed: true,
  };
  clientCredentials.length = 0;
  sts.on(AssumeRoleCommand).callsFake(async (input) => {
    if (input.ExternalId !== account.externalId)
      throw awsError('AccessDenied', 'not authorized to perform: sts:AssumeRole');
    return {
      Credentials: {
        AccessKeyId: 'ASIA1',
        SecretAccessKey: 'secret',
        SessionToken: 'token',
        Expiration: new Date(),
      },
    };
  });
  exportsClient.on(ListExportsCommand).callsFake(async () => {
    if (account.exportsError) throw awsError(account.exportsError);
    return {
      Exports: account.dataExport
        ? [
            {
              ExportArn: 'arn:aws:bcm-data-exports:us-east-1:444455556666:export/hourly-1',
              ExportName: 'hourly',
            },
          ]
        : [],
    };
  });
  exportsClient.on(GetExportCommand).callsFake(async () => {
    const settings = account.dataExport;
    return {
      Export: {
        Name: 'hourly',
        DataQuery: {
          QueryStatement: 'SELECT * FROM COST_AND_USAGE_REPORT',
          TableConfigurations: {
            COST_AND_USAGE_REPORT: {
              TIME_GRANULARITY: settings?.granularity ?? '',
              INCLUDE_RESOURCES: settings?.resources ?? '',
            },
          },
        },
        DestinationConfigurations: {
          S3Destination: {
            S3Bucket: 'acme-cur',
            S3Prefix: 'cur',
            S3Region: 'eu-west-1',
            S3OutputConfigurations: {
              Format: settings?.format,
              OutputType: 'CUSTOM',
              Overwrite: 'OVERWRITE_REPORT',
              Compression: 'PARQUET',
            },
          },
        },
        RefreshCadence: { Frequency: 'SYNCHRONOUS' },
      },
    };
  });
  ce.on(GetCostAndUsageCommand).callsFake(async () => {
    if (account.costExplorerError) throw awsError(account.costExplorerError);
    return { ResultsByTime: [] };
  });
  ec2.on(DescribeReservedInstancesOfferingsCommand).resolves({
    ReservedInstancesOfferings: [{ ReservedInstancesOfferingId: 'offering-1' }],
  });
  ec2.on(PurchaseReservedInstancesOfferingCommand).callsFake(async (input) => {
    if (input.DryRun !== true) throw new Error('the verifier must never buy');
    throw account.purchaseAllowed
      ? awsError('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.')
      : awsError('UnauthorizedOperation', 'You are not authorized to perform this operation.');
  });
});

afterEach(() => {
  for (const mock of [sts, exportsClient, ce, ec2]) mock.reset();
  listings.length = 0;
});

// The mocks replace each client class's send for the whole process: put them back for the files after.
afterAll(() => {
  for (const mock of [sts, exportsClient, ce, ec2]) mock.restore();
});

function verify() {
  return runAwsChecks(awsSdkProbe({ region: 'eu-west-1', clients: recordingClients }), request);
}

const statusOf = (items: { feature: string; status: string }[]) =>
  Object.fromEntries(items.map((item) => [item.feature, item.status]));

describe('the AWS SDK adapter', () => {
  it('assumes the role with the external id, then checks everything with its credentials', async () => {
    // Act
    const items = await verify();

    // Assess
    expect(Object.values(statusOf(items))).toEqual(Array(8).fill('available'));
    expect(sts.commandCalls(AssumeRoleCommand)[0]?.args[0].input).toMatchObject({
      RoleArn: request.roleArn,
      ExternalId: request.externalId,
    });
    expect(clientCredentials).toContainEqual({
      accessKeyId: 'ASIA1',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    });
    expect(listings).toEqual([{ bucket: 'acme-cur', prefix: 'cur', maxKeys: 1000, region: 'eu-west-1' }]);
  });

  it("assumes the role in the function's region, and every verification through one HTTP handler", async () => {
    // Act
    await verify();
    await verify();

    // Assess: a client per verification (the provider's), one pool of connections to STS
    const senders = sts.commandCalls(AssumeRoleCommand).map((call) => call.thisValue as STSClient);
    expect(senders).toHaveLength(2);
    expect(senders[0]).not.toBe(senders[1]);
    expect(senders[0]?.config.requestHandler).toBe(senders[1]?.config.requestHandler);
    expect(await senders[0]?.config.region()).toBe('eu-west-1');
  });

  it("answers role_assumable missing, with AWS's message, for a wrong external id, and checks nothing else", async () => {
    // Prepare
    account.externalId = 'cpo-other';

    // Act
    const items = await verify();

    // Assess
    expect(items[0]).toMatchObject({ feature: 'role_assumable', status: 'missing' });
    expect(items[0]?.detail).toContain('not authorized to perform: sts:AssumeRole');
    expect(new Set(items.slice(1).map((item) => item.status))).toEqual(new Set(['unknown']));
    expect(listings).toHaveLength(0);
  });

  it('reads a legacy CUR definition when Data Exports has none, and warns of a daily CSV report', async () => {
    // Prepare
    account.dataExport = null;
    account.legacyReports = [
      {
        ReportName: 'hourly',
        TimeUnit: 'DAILY',
        Format: 'textORcsv',
        AdditionalSchemaElements: ['RESOURCES'],
      },
    ];

    // Act
    const items = await verify();

    // Assess
    expect(statusOf(items)).toMatchObject({
      cur_export: 'warning',
      cur_hourly: 'warning',
      cur_resource_ids: 'available',
    });
    expect(items[1]?.detail).toContain('legacy Cost and Usage Report');
  });

  it('answers the export checks unknown when the lookup is denied, and the other checks as usual', async () => {
    // Prepare
    account.exportsError = 'AccessDeniedException';

    // Act
    const items = await verify();

    // Assess
    expect(statusOf(items)).toMatchObject({
      cur_export: 'unknown',
      cur_hourly: 'unknown',
      cur_bucket_readable: 'available',
      purchase_permission: 'available',
    });
    expect(items[1]?.detail).toContain('AccessDeniedException');
  });

  it.each([
    ['NoSuchBucket', 'missing', 'missing'],
    ['AccessDenied', 'missing', 'unknown'],
    ['SlowDown', 'unknown', 'unknown'],
  ])('maps S3 %s to cur_bucket_readable %s and cur_delivered %s', async (error, readable, delivered) => {
    // Prepare
    account.bucketError = error;

    // Act
    const items = await verify();

    // Assess
    expect(statusOf(items)).toMatchObject({
      cur_bucket_readable: readable,
      cur_delivered: delivered,
      cost_explorer_access: 'available',
    });
  });

  it.each([
    ['AccessDeniedException', 'missing'],
    ['ThrottlingException', 'unknown'],
    ['LimitExceededException', 'unknown'],
  ])('maps Cost Explorer %s to %s', async (error, status) => {
    // Prepare
    account.costExplorerError = error;

    // Act
    const items = await verify();

    // Assess
    expect(statusOf(items).cost_explorer_access).toBe(status);
    expect(items.find((item) => item.feature === 'cost_explorer_access')?.detail).toContain(error);
  });

  it('reads DryRunOperation as allowed and UnauthorizedOperation as missing, never buying', async () => {
    // Act
    const allowed = await verify();
    account.purchaseAllowed = false;
    const refused = await verify();

    // Assess
    expect(statusOf(allowed).purchase_permission).toBe('available');
    expect(statusOf(refused).purchase_permission).toBe('missing');
    expect(
      ec2.commandCalls(PurchaseReservedInstancesOfferingCommand).every((call) => call.args[0].input.DryRun),
    ).toBe(true);
  });
});
