import { DescribeReservedInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DescribeReservedDBInstancesCommand, RDSClient } from '@aws-sdk/client-rds';
import { DescribeSavingsPlansCommand, SavingsplansClient } from '@aws-sdk/client-savingsplans';
import type { AwsCredentialIdentity } from '@smithy/types';
import type { AwsUsageAccount, AwsUsageSources, UsageSourceSession } from '../../app/ports/usage-sync';
import type { ExistingCommitment } from '../../domain/engine/shapes/model';
import {
  ec2ReservationCommitment,
  rdsReservationCommitment,
  savingsPlanCommitment,
} from '../../domain/usage-sources/aws-owned-commitments';
import {
  currentExportFiles,
  type ExportLayout,
  exportListingPrefix,
} from '../../domain/usage-sources/export-files';
import { type RoleToAssume, sdkClients } from '../verifiers/aws-sdk-probe';
import { type S3ExportObjects, s3ExportObjects } from './s3-export-objects';

/** Savings Plans answer in us-east-1 only. */
const savingsPlansRegion = 'us-east-1';
/** A sync reads files for minutes: the role's session lasts the longest an onboarding role allows (its MaxSessionDuration). */
const sessionSeconds = 3600;
/** Pages of reservations or plans read before giving up. */
const maxPages = 100;

export interface AwsUsageClients {
  assumeRole(role: RoleToAssume): Promise<AwsCredentialIdentity>;
  s3(credentials: AwsCredentialIdentity, region: string): S3ExportObjects;
  ec2(credentials: AwsCredentialIdentity, region: string): EC2Client;
  rds(credentials: AwsCredentialIdentity, region: string): RDSClient;
  savingsPlans(credentials: AwsCredentialIdentity): SavingsplansClient;
}

/** The clients on the role's credentials, with the SDK's standard retries (a sync is not interactive). */
export const awsUsageClients: AwsUsageClients = {
  assumeRole: (role) => sdkClients.assumeRole(role),
  s3: (credentials, region) => s3ExportObjects({ credentials, region, maxAttempts: 3 }),
  ec2: (credentials, region) => new EC2Client({ region, credentials, maxAttempts: 3 }),
  rds: (credentials, region) => new RDSClient({ region, credentials, maxAttempts: 3 }),
  savingsPlans: (credentials) =>
    new SavingsplansClient({ region: savingsPlansRegion, credentials, maxAttempts: 3 }),
};

export interface AwsUsageSourcesOptions {
  /** Where STS is called (the service's own region). */
  readonly region: string;
  /** The regions whose reservations are read (EC2 and RDS describe them per region): the catalog's. */
  readonly reservationRegions: readonly string[];
  readonly clients?: AwsUsageClients;
}

/**
 * A connected AWS account's export and owned commitments, read through its onboarding role with
 * the org's external id (docs/onboarding.md, What the sync reads).
 */
export function awsUsageSources(options: AwsUsageSourcesOptions): AwsUsageSources {
  const clients = options.clients ?? awsUsageClients;
  return {
    async connect(account) {
      const credentials = await clients.assumeRole({
        roleArn: account.roleArn,
        externalId: account.externalId,
        region: options.region,
        sessionName: 'commitment-planning-usage-sync',
        durationSeconds: sessionSeconds,
      });
      return accountSession(clients, credentials, account, options.reservationRegions);
    },
  };
}

function accountSession(
  clients: AwsUsageClients,
  credentials: AwsCredentialIdentity,
  account: AwsUsageAccount,
  reservationRegions: readonly string[],
): UsageSourceSession {
  const location = account.export;
  const s3 = clients.s3(credentials, location.region);
  const layout: ExportLayout = {
    kind: location.source,
    bucket: location.bucket,
    prefix: location.prefix,
    name: location.name,
  };
  const where = (region: string) => ({ accountId: account.accountId, region });
  return {
    async listExportFiles() {
      const listed = await s3.listAll(location.bucket, exportListingPrefix(layout));
      return currentExportFiles(layout, listed, (key, maxBytes) =>
        s3.getText(location.bucket, key, maxBytes),
      );
    },

    openExportFile(file) {
      return s3.open(location.bucket, file);
    },

    async ownedCommitments() {
      const perRegion = await Promise.all(
        reservationRegions.map(async (region) => [
          ...(await ec2Reservations(clients.ec2(credentials, region))).flatMap((reservation) => {
            const mapped = ec2ReservationCommitment(reservation, where(region));
            return mapped ? [mapped] : [];
          }),
          ...(await rdsReservations(clients.rds(credentials, region))).flatMap((reservation) => {
            const mapped = rdsReservationCommitment(reservation, where(region));
            return mapped ? [mapped] : [];
          }),
        ]),
      );
      const plans = (await savingsPlans(clients.savingsPlans(credentials))).flatMap((plan) => {
        const mapped = savingsPlanCommitment(plan, account.accountId);
        return mapped ? [mapped] : [];
      });
      return [...perRegion.flat(), ...plans] satisfies ExistingCommitment[];
    },
  };
}

/** EC2 answers every reservation of the region at once (the call has no pages). */
async function ec2Reservations(ec2: EC2Client) {
  const answer = await ec2.send(
    new DescribeReservedInstancesCommand({ Filters: [{ Name: 'state', Values: ['active'] }] }),
  );
  return answer.ReservedInstances ?? [];
}

async function rdsReservations(rds: RDSClient) {
  const found = [];
  let marker: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await rds.send(
      new DescribeReservedDBInstancesCommand({ MaxRecords: 100, ...(marker ? { Marker: marker } : {}) }),
    );
    found.push(...(answer.ReservedDBInstances ?? []));
    marker = answer.Marker;
    if (!marker) return found;
  }
  throw new Error(`more than ${maxPages} pages of RDS reservations`);
}

async function savingsPlans(client: SavingsplansClient) {
  const found = [];
  let nextToken: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await client.send(
      new DescribeSavingsPlansCommand({
        states: ['active'],
        maxResults: 1000,
        ...(nextToken ? { nextToken } : {}),
      }),
    );
    found.push(...(answer.savingsPlans ?? []));
    nextToken = answer.nextToken;
    if (!nextToken) return found;
  }
  throw new Error(`more than ${maxPages} pages of savings plans`);
}
