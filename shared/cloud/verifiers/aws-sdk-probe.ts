import { BCMDataExportsClient, GetExportCommand, ListExportsCommand } from '@aws-sdk/client-bcm-data-exports';
import { CostExplorerClient, GetCostAndUsageCommand } from '@aws-sdk/client-cost-explorer';
import {
  DescribeReservedInstancesOfferingsCommand,
  EC2Client,
  PurchaseReservedInstancesOfferingCommand,
} from '@aws-sdk/client-ec2';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { CostExport } from '../../domain/onboarding/aws-checks';
import type { AwsAccountProbe, AwsAccountSession } from './aws-verification';
import { type LegacyCurReports, type LegacyReportDefinition, legacyCurReports } from './legacy-cur-reports';
import { ProviderError } from './provider-failure';
import { type S3ObjectListing, s3ObjectListing } from './s3-object-listing';

/** The HTTP handler (and so the kept-alive connections) of every AssumeRole call of the process. */
const stsConnections = new NodeHttpHandler();

/** Billing services (Data Exports, CUR, Cost Explorer) answer in us-east-1 only. */
const billingRegion = 'us-east-1';
/** How many pages of exports or report definitions are looked through for the one named. */
const maxPages = 5;

export interface AwsSdkProbeOptions {
  /** The region of the service's own calls (STS, EC2's DryRun). */
  readonly region: string;
  /** Builds the clients; tests give clients mocked with aws-sdk-client-mock. */
  readonly clients?: AwsClientFactory;
}

type Credentials = {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
};

/** What assuming the customer's role takes: the role, its external id, and where STS is called. */
export interface RoleToAssume {
  readonly roleArn: string;
  readonly externalId: string;
  readonly region: string;
  /** Who assumes it, in CloudTrail: the verifier unless given (a usage sync names itself). */
  readonly sessionName?: string;
  /** @default 900 (a verification's few calls) */
  readonly durationSeconds?: number;
}

export interface AwsClientFactory {
  /** The role's temporary credentials, or AWS's error (AccessDenied, ...) when it cannot be assumed. */
  assumeRole(role: RoleToAssume): Promise<Credentials>;
  dataExports(credentials: Credentials): BCMDataExportsClient;
  cur(credentials: Credentials): LegacyCurReports;
  s3(credentials: Credentials, region: string): S3ObjectListing;
  costExplorer(credentials: Credentials): CostExplorerClient;
  ec2(credentials: Credentials, region: string): EC2Client;
}

/** Clients on the assumed role's credentials; the SDK's own retries are kept short (a verify is interactive). */
export const sdkClients: AwsClientFactory = {
  assumeRole: assumeRoleWithSdk,
  dataExports: (credentials) =>
    new BCMDataExportsClient({ region: billingRegion, credentials, maxAttempts: 2 }),
  cur: (credentials) => legacyCurReports({ region: billingRegion, credentials, maxAttempts: 2 }),
  s3: (credentials, region) => s3ObjectListing({ region, credentials, maxAttempts: 2 }),
  costExplorer: (credentials) =>
    new CostExplorerClient({ region: billingRegion, credentials, maxAttempts: 2 }),
  ec2: (credentials, region) => new EC2Client({ region, credentials, maxAttempts: 2 }),
};

/**
 * The AWS checks' calls with the AWS SDK: STS AssumeRole with the external id, then each service
 * with the role's credentials (legacy CUR and S3 with the SDK's signer and HTTP handler, without
 * their clients: legacy-cur-reports.ts and s3-object-listing.ts say why). Errors carry AWS's error
 * code as `name`, except EC2's DryRun, whose success is the `DryRunOperation` error.
 */
export function awsSdkProbe(options: AwsSdkProbeOptions): AwsAccountProbe {
  const clients = options.clients ?? sdkClients;
  return {
    async assumeRole(request): Promise<AwsAccountSession> {
      const credentials = await clients.assumeRole({
        roleArn: request.roleArn,
        externalId: request.externalId,
        region: options.region,
      });
      return accountSession(clients, credentials, options.region);
    },
  };
}

/**
 * STS AssumeRole through the SDK's assumed-role credential provider, as the purchase adapter
 * assumes the customer's role: it calls the STS client already in every function's bundle (the one
 * the default credential chain carries), where `@aws-sdk/client-sts` would add a second.
 * Resolved at once, so the check sees AWS's refusal, not a later client's. The provider builds an
 * STS client per verification; they all send through one HTTP handler, so a warm function keeps
 * its connection to STS between verifications, as one shared STS client would.
 */
async function assumeRoleWithSdk(role: RoleToAssume): Promise<Credentials> {
  const given = await fromTemporaryCredentials({
    params: {
      RoleArn: role.roleArn,
      RoleSessionName: role.sessionName ?? 'commitment-planning-verify',
      ExternalId: role.externalId,
      DurationSeconds: role.durationSeconds ?? 900,
    },
    clientConfig: { region: role.region, maxAttempts: 2, requestHandler: stsConnections },
  })();
  if (!given.sessionToken) {
    throw new ProviderError('InvalidCredentials', 'AssumeRole answered no session token');
  }
  return {
    accessKeyId: given.accessKeyId,
    secretAccessKey: given.secretAccessKey,
    sessionToken: given.sessionToken,
  };
}

function accountSession(
  clients: AwsClientFactory,
  credentials: Credentials,
  region: string,
): AwsAccountSession {
  return {
    async findDataExport(name) {
      const client = clients.dataExports(credentials);
      let nextToken: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const listed = await client.send(
          new ListExportsCommand({ ...(nextToken ? { NextToken: nextToken } : {}) }),
        );
        for (const reference of listed.Exports ?? []) {
          if (!reference.ExportArn || (name !== null && reference.ExportName !== name)) continue;
          const found = await client.send(new GetExportCommand({ ExportArn: reference.ExportArn }));
          const described = found.Export;
          const table = described?.DataQuery?.TableConfigurations?.COST_AND_USAGE_REPORT;
          const destination = described?.DestinationConfigurations?.S3Destination;
          // Without a name, only a Cost and Usage (CUR 2.0) export will do.
          if (!described || !destination || (name === null && !table)) continue;
          return {
            name: described.Name ?? reference.ExportName ?? '',
            source: 'data-exports',
            granularity: table?.TIME_GRANULARITY ?? 'UNKNOWN',
            format: destination.S3OutputConfigurations?.Format === 'PARQUET' ? 'parquet' : 'csv',
            includesResourceIds: table?.INCLUDE_RESOURCES === 'TRUE',
            bucket: destination.S3Bucket ?? '',
            prefix: destination.S3Prefix ?? '',
            region: destination.S3Region ?? billingRegion,
          } satisfies CostExport;
        }
        nextToken = listed.NextToken;
        if (!nextToken) break;
      }
      return null;
    },

    async findLegacyReport(name) {
      const client = clients.cur(credentials);
      let nextToken: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const listed = await client.describeReportDefinitions(nextToken);
        const found = (listed.ReportDefinitions ?? []).find(
          (report) => name === null || report.ReportName === name,
        );
        if (found) return legacyExport(found);
        nextToken = listed.NextToken;
        if (!nextToken) break;
      }
      return null;
    },

    async listObjects(location) {
      return clients
        .s3(credentials, location.region)
        .listObjectsV2({ bucket: location.bucket, prefix: location.prefix, maxKeys: 1000 });
    },

    async queryCostExplorer() {
      // The smallest query: yesterday's cost, one metric, no grouping (each call is billed $0.01).
      const end = new Date();
      const start = new Date(end.getTime() - 86_400_000);
      await clients.costExplorer(credentials).send(
        new GetCostAndUsageCommand({
          TimePeriod: { Start: start.toISOString().slice(0, 10), End: end.toISOString().slice(0, 10) },
          Granularity: 'DAILY',
          Metrics: ['UnblendedCost'],
        }),
      );
    },

    async dryRunReservationPurchase() {
      const ec2 = clients.ec2(credentials, region);
      const offerings = await ec2.send(
        new DescribeReservedInstancesOfferingsCommand({
          InstanceType: 't3.micro',
          ProductDescription: 'Linux/UNIX',
          OfferingType: 'No Upfront',
          IncludeMarketplace: false,
          MaxResults: 5,
        }),
      );
      const offeringId = offerings.ReservedInstancesOfferings?.[0]?.ReservedInstancesOfferingId;
      if (!offeringId) throw new ProviderError('NoOffering', `no t3.micro offering in ${region} to dry-run`);
      try {
        await ec2.send(
          new PurchaseReservedInstancesOfferingCommand({
            ReservedInstancesOfferingId: offeringId,
            InstanceCount: 1,
            DryRun: true,
          }),
        );
      } catch (error) {
        // "Request would have succeeded, but DryRun flag is set": the permission is there.
        if (error instanceof Error && error.name === 'DryRunOperation') return;
        throw error;
      }
      throw new ProviderError(
        'DryRunIgnored',
        'EC2 answered a DryRun purchase without the DryRunOperation error',
      );
    },
  };
}

function legacyExport(report: LegacyReportDefinition): CostExport {
  return {
    name: report.ReportName ?? '',
    source: 'legacy-cur',
    granularity: report.TimeUnit ?? 'UNKNOWN',
    format: report.Format === 'Parquet' ? 'parquet' : 'csv',
    includesResourceIds: (report.AdditionalSchemaElements ?? []).includes('RESOURCES'),
    bucket: report.S3Bucket ?? '',
    prefix: report.S3Prefix ?? '',
    region: report.S3Region ?? billingRegion,
  };
}
