/**
 * The legacy CUR call on the wire (legacy-cur-reports.ts): DescribeReportDefinitions in AWS's JSON
 * protocol against a local server, through the adapter's report lookup, with the role's
 * credentials. The signature is checked from scratch (test/support/aws-json-service.ts), not by
 * the signer that made it. STS, which only hands the adapter its credentials, is mocked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AwsAccountSession } from '../../../shared/cloud/verifiers/aws-verification';
import { legacyCurReports } from '../../../shared/cloud/verifiers/legacy-cur-reports';
import { type AwsJsonService, checkSigV4, startAwsJsonService } from '../../support/aws-json-service';
import { mockedRoleSts, roleCredentials, roleSessionWith } from '../../support/aws-role-session';

const hourlyReport = {
  ReportName: 'hourly',
  TimeUnit: 'HOURLY',
  Format: 'Parquet',
  Compression: 'Parquet',
  AdditionalSchemaElements: ['RESOURCES', 'SPLIT_COST_ALLOCATION_DATA'],
  S3Bucket: 'acme-cur',
  S3Prefix: 'cur',
  S3Region: 'eu-west-1',
  RefreshClosedReports: true,
  ReportVersioning: 'OVERWRITE_REPORT',
};

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
    DescribeReportDefinitions: { status: 200, body: { ReportDefinitions: [hourlyReport] } },
  };
});

function roleSession(maxAttempts = 1): Promise<AwsAccountSession> {
  return roleSessionWith({
    cur: (credentials) =>
      legacyCurReports({ region: 'us-east-1', credentials, endpoint: service.endpoint, maxAttempts }),
  });
}

describe('the legacy CUR call on the wire', () => {
  it('reads the named report definition and answers its settings', async () => {
    // Prepare
    const session = await roleSession();

    // Act
    const found = await session.findLegacyReport('hourly');

    // Assess
    expect(found).toEqual({
      name: 'hourly',
      source: 'legacy-cur',
      granularity: 'HOURLY',
      format: 'parquet',
      includesResourceIds: true,
      bucket: 'acme-cur',
      prefix: 'cur',
      region: 'eu-west-1',
    });
    expect(service.received).toHaveLength(1);
    expect(service.received[0]).toMatchObject({
      method: 'POST',
      path: '/',
      target: 'AWSOrigamiServiceGatewayService.DescribeReportDefinitions',
      body: {},
    });
  });

  it('signs with the role credentials for the cur service in us-east-1 (SigV4 checked from scratch)', async () => {
    // Prepare
    const session = await roleSession();

    // Act
    await session.findLegacyReport(null);

    // Assess
    const [request] = service.received;
    expect(request?.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(request?.headers['x-amz-security-token']).toBe(roleCredentials.sessionToken);
    expect(String(request?.headers.authorization)).toMatch(/SignedHeaders=[^,]*\bhost\b[^,]*x-amz-target/);
    expect(request && checkSigV4(request, roleCredentials.secretAccessKey)).toEqual({
      accessKeyId: roleCredentials.accessKeyId,
      region: 'us-east-1',
      service: 'cur',
      valid: true,
    });
    expect(request && checkSigV4(request, 'another-secret').valid).toBe(false);
  });

  it('follows NextToken until the named report is found', async () => {
    // Prepare
    const pages = [
      { ReportDefinitions: [{ ...hourlyReport, ReportName: 'daily' }], NextToken: 'page-2' },
      { ReportDefinitions: [hourlyReport] },
    ];
    let page = 0;
    service.answers.DescribeReportDefinitions = () => ({ status: 200, body: pages[page++] });
    const session = await roleSession();

    // Act
    const found = await session.findLegacyReport('hourly');

    // Assess
    expect(found?.name).toBe('hourly');
    expect(service.received.map((request) => request.body)).toEqual([{}, { NextToken: 'page-2' }]);
  });

  it('answers null when no page holds the report', async () => {
    // Prepare
    service.answers.DescribeReportDefinitions = { status: 200, body: { ReportDefinitions: [] } };
    const session = await roleSession();

    // Act
    const found = await session.findLegacyReport('hourly');

    // Assess
    expect(found).toBeNull();
  });

  it("throws the service's error with AWS's code as its name and AWS's message", async () => {
    // Prepare
    service.answers.DescribeReportDefinitions = {
      status: 400,
      body: {
        __type: 'com.amazonaws.costandusagereport#AccessDeniedException',
        Message: 'User is not authorized to perform: cur:DescribeReportDefinitions',
      },
    };
    const session = await roleSession(2);

    // Act
    const finding = session.findLegacyReport('hourly');

    // Assess: a client error is not tried again
    await expect(finding).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: 'User is not authorized to perform: cur:DescribeReportDefinitions',
    });
    expect(service.received).toHaveLength(1);
  });

  it('names the error from x-amzn-errortype when the body does not', async () => {
    // Prepare
    service.answers.DescribeReportDefinitions = {
      status: 400,
      headers: {
        'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.coral.validate/',
      },
      body: { message: 'NextToken is not valid' },
    };
    const session = await roleSession();

    // Act
    const finding = session.findLegacyReport('hourly');

    // Assess
    await expect(finding).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'NextToken is not valid',
    });
  });

  it('tries a throttled call once more, as the SDK clients do with maxAttempts 2', async () => {
    // Prepare
    const replies = [
      { status: 400, body: { __type: 'ThrottlingException', message: 'Rate exceeded' } },
      { status: 200, body: { ReportDefinitions: [hourlyReport] } },
    ];
    service.answers.DescribeReportDefinitions = () => replies.shift() ?? { status: 500, body: {} };
    const session = await roleSession(2);

    // Act
    const found = await session.findLegacyReport('hourly');

    // Assess
    expect(found?.name).toBe('hourly');
    expect(service.received).toHaveLength(2);
  });

  it('gives up after maxAttempts on a service that keeps failing, with its code', async () => {
    // Prepare
    service.answers.DescribeReportDefinitions = {
      status: 503,
      body: { __type: 'ServiceUnavailableException', message: 'try later' },
    };
    const session = await roleSession(2);

    // Act
    const finding = session.findLegacyReport('hourly');

    // Assess
    await expect(finding).rejects.toMatchObject({
      name: 'ServiceUnavailableException',
      message: 'try later',
    });
    expect(service.received).toHaveLength(2);
  });
});
