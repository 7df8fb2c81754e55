/**
 * The Data Exports client on the wire. The registry's newest @aws-sdk/client-bcm-data-exports
 * (3.965) pins @aws-sdk/core and the credential chain at 3.965; package.json's `overrides` let it
 * use the copies every other client uses, so the verify function bundles one of each. This proves
 * the client still works on them: the real client, with the role's credentials, against a local
 * server speaking the service's JSON protocol (awsJson1_1), through the adapter's export lookup.
 * STS, which only hands the adapter its credentials, is mocked.
 */
import { createRequire } from 'node:module';
import { BCMDataExportsClient } from '@aws-sdk/client-bcm-data-exports';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AwsAccountSession } from '../../../shared/cloud/verifiers/aws-verification';
import { type AwsJsonService, checkSigV4, startAwsJsonService } from '../../support/aws-json-service';
import { mockedRoleSts, roleCredentials, roleSessionWith } from '../../support/aws-role-session';

const exportArn = 'arn:aws:bcm-data-exports:us-east-1:444455556666:export/hourly-1';
let service: AwsJsonService;

const sts = mockedRoleSts();

beforeAll(async () => {
  service = await startAwsJsonService();
});

afterAll(async () => {
  sts.restore();
  await service.close();
});

beforeEach(() => {
  service.received.length = 0;
  sts.reset();
  service.answers = {
    ListExports: {
      status: 200,
      body: {
        Exports: [
          {
            ExportArn: 'arn:aws:bcm-data-exports:us-east-1:444455556666:export/other-1',
            ExportName: 'other',
          },
          { ExportArn: exportArn, ExportName: 'hourly' },
        ],
      },
    },
    GetExport: {
      status: 200,
      body: {
        Export: {
          Name: 'hourly',
          DataQuery: {
            QueryStatement: 'SELECT * FROM COST_AND_USAGE_REPORT',
            TableConfigurations: {
              COST_AND_USAGE_REPORT: { TIME_GRANULARITY: 'HOURLY', INCLUDE_RESOURCES: 'TRUE' },
            },
          },
          DestinationConfigurations: {
            S3Destination: {
              S3Bucket: 'acme-cur',
              S3Prefix: 'cur',
              S3Region: 'eu-west-1',
              S3OutputConfigurations: {
                Format: 'PARQUET',
                OutputType: 'CUSTOM',
                Overwrite: 'OVERWRITE_REPORT',
                Compression: 'PARQUET',
              },
            },
          },
          RefreshCadence: { Frequency: 'SYNCHRONOUS' },
        },
      },
    },
  };
});

function roleSession(): Promise<AwsAccountSession> {
  return roleSessionWith({
    dataExports: (credentials) =>
      new BCMDataExportsClient({
        region: 'us-east-1',
        credentials,
        endpoint: service.endpoint,
        maxAttempts: 1,
      }),
  });
}

describe('the Data Exports client on the shared SDK core', () => {
  it('resolves @aws-sdk/core to the copy the other clients use (one core in the bundle)', () => {
    // Prepare
    const fromRoot = createRequire(import.meta.url);
    const fromClient = createRequire(fromRoot.resolve('@aws-sdk/client-bcm-data-exports'));

    // Act
    const clientCore = fromClient.resolve('@aws-sdk/core');

    // Assess
    expect(clientCore).toBe(
      createRequire(fromRoot.resolve('@aws-sdk/client-dynamodb')).resolve('@aws-sdk/core'),
    );
  });

  it('lists the exports, reads the one named and answers its settings', async () => {
    // Prepare
    const session = await roleSession();

    // Act
    const found = await session.findDataExport('hourly');

    // Assess
    expect(found).toEqual({
      name: 'hourly',
      source: 'data-exports',
      granularity: 'HOURLY',
      format: 'parquet',
      includesResourceIds: true,
      bucket: 'acme-cur',
      prefix: 'cur',
      region: 'eu-west-1',
    });
    expect(service.received.map((request) => request.target)).toEqual([
      'AWSBillingAndCostManagementDataExports.ListExports',
      'AWSBillingAndCostManagementDataExports.GetExport',
    ]);
    expect(service.received[1]?.body).toEqual({ ExportArn: exportArn });
  });

  it('signs each request with the role credentials (SigV4, the service name, us-east-1)', async () => {
    // Prepare
    const session = await roleSession();

    // Act
    await session.findDataExport('hourly');

    // Assess
    for (const request of service.received) {
      expect(request.headers['content-type']).toBe('application/x-amz-json-1.1');
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=ASIAROLE\/\d{8}\/us-east-1\/bcm-data-exports\/aws4_request, SignedHeaders=[^,]*x-amz-target[^,]*, Signature=[0-9a-f]{64}$/,
      );
      expect(request.headers['x-amz-security-token']).toBe(roleCredentials.sessionToken);
      expect(checkSigV4(request, roleCredentials.secretAccessKey)).toEqual({
        accessKeyId: roleCredentials.accessKeyId,
        region: 'us-east-1',
        service: 'bcm-data-exports',
        valid: true,
      });
    }
  });

  it('follows NextToken to the next page of exports', async () => {
    // Prepare
    const pages = [
      {
        Exports: [{ ExportArn: 'arn:aws:bcm-data-exports:us-east-1:1:export/a', ExportName: 'a' }],
        NextToken: 'page-2',
      },
      { Exports: [{ ExportArn: exportArn, ExportName: 'hourly' }] },
    ];
    let page = 0;
    service.answers.ListExports = () => ({ status: 200, body: pages[page++] });
    const session = await roleSession();

    // Act
    const found = await session.findDataExport('hourly');

    // Assess
    expect(found?.name).toBe('hourly');
    expect(
      service.received.filter((request) => request.target?.endsWith('.ListExports')).map((r) => r.body),
    ).toEqual([{}, { NextToken: 'page-2' }]);
  });

  it("answers the service's error with AWS's code as its name and its message", async () => {
    // Prepare
    service.answers.ListExports = {
      status: 400,
      body: {
        __type: 'com.amazonaws.bcmdataexports#AccessDeniedException',
        Message: 'User is not authorized to perform: bcm-data-exports:ListExports',
      },
    };
    const session = await roleSession();

    // Act
    const finding = session.findDataExport('hourly');

    // Assess
    await expect(finding).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: 'User is not authorized to perform: bcm-data-exports:ListExports',
      $fault: 'client',
    });
  });
});
