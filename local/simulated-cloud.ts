import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AwsVerificationRequest } from '../shared/app/ports';
import type { AwsAccountProbe, AwsAccountSession } from '../shared/cloud/verifiers/aws-verification';
import type { AzureTenantProbe, AzureTenantSession } from '../shared/cloud/verifiers/azure-verification';
import { ProviderError } from '../shared/cloud/verifiers/provider-failure';
import type { ExistingCommitment } from '../shared/domain/engine/shapes/model';
import type { CostExport } from '../shared/domain/onboarding/aws-checks';
import { onboardingRoleName } from '../shared/domain/onboarding/aws-checks';
import { type AzurePermission, permits } from '../shared/domain/onboarding/azure-checks';
import type { SimulatedArmBehaviour } from './simulated-arm';
import type { SimulatedArmOrders } from './simulated-arm-orders';

/**
 * The simulated cloud (docs/onboarding.md): the local default and the tests' cloud. A JSON document under
 * LOCAL_DIR (`simulated-cloud.json`) of AWS accounts and Azure tenants, read on every call, so
 * that `admin simulate-cloud` changes what the next verification finds. The probes answer as the
 * providers do, with their error codes and messages.
 */
export interface SimulatedCloud {
  /** Milliseconds every simulated call takes (to measure the verifiers' concurrency). */
  latency_ms?: number;
  aws: Record<string, SimulatedAwsAccount>;
  azure: Record<string, SimulatedAzureTenant>;
  /**
   * The simulated Microsoft identity platform's signing key (simulated-identity-provider.ts),
   * generated on first use: the ID tokens of every simulated tenant are signed with it.
   */
  identity_provider?: { kid: string; private_jwk: Record<string, unknown> };
}

/** Calls of an AWS account a test can make throttled. */
export const awsCalls = ['assume_role', 'exports', 'bucket', 'cost_explorer', 'purchase'] as const;
export type AwsCall = (typeof awsCalls)[number];

export interface SimulatedAwsAccount {
  /** The onboarding role, when the customer created it: whom it trusts, with which external id. */
  role: { name: string; trusted_account: string; external_id: string } | null;
  exports: {
    name: string;
    source: 'data-exports' | 'legacy-cur';
    granularity: 'HOURLY' | 'DAILY' | 'MONTHLY';
    format: 'parquet' | 'csv';
    resource_ids: boolean;
    bucket: string;
    prefix: string;
  }[];
  /** Buckets and the keys of their objects. */
  buckets: Record<string, { objects: string[] }>;
  /** What the role's policies allow. */
  permissions: Record<Exclude<AwsCall, 'assume_role'>, boolean>;
  /** Calls answering ThrottlingException. */
  throttled: AwsCall[];
  /** The reservations and savings plans the account owns (simulated-usage-sources.ts). */
  commitments?: ExistingCommitment[];
}

export interface SimulatedAzureTenant {
  /** Whether an administrator consented to the service's app. */
  consent: boolean;
  subscriptions: Record<string, SimulatedAzureSubscription>;
  /** The reservation and savings plan orders bought through its ARM (simulated-arm.ts). */
  arm?: SimulatedArmOrders;
  /**
   * Who can sign in to the tenant (simulated-identity-provider.ts), by user name; absent: an
   * administrator `admin@<tenant>` (Global Administrator) and a user `user@<tenant>` (no
   * directory role).
   */
  users?: Record<string, SimulatedTenantUser>;
}

export interface SimulatedTenantUser {
  object_id: string;
  display_name: string;
  /** Directory-role template ids (the ID token's `wids`). */
  roles: string[];
}

export interface SimulatedAzureSubscription {
  display_name: string;
  /** Its Cost Management exports (FOCUS), by name; the first is the one files are delivered to. */
  cost_exports: string[];
  role_assignments: string[];
  throttled?: boolean;
  /** The blobs delivered into the first export's container (simulated-azure-usage-sources.ts). */
  blobs?: string[];
  /** The reservations and savings plans it owns (simulated-azure-usage-sources.ts). */
  commitments?: ExistingCommitment[];
  /** How its ARM refuses purchases billed to it (simulated-arm.ts). */
  purchase?: SimulatedArmBehaviour;
}

/** The built-in roles the simulated tenants know, with the actions they grant. */
export const azureRoles: Readonly<Record<string, AzurePermission>> = {
  Reader: { actions: ['*/read'], notActions: [] },
  'Cost Management Reader': {
    actions: ['Microsoft.CostManagement/*/read', 'Microsoft.Consumption/*/read'],
    notActions: [],
  },
  'Reservation Purchaser': {
    actions: ['Microsoft.Capacity/reservationOrders/*', 'Microsoft.Capacity/*/read'],
    notActions: [],
  },
  'Savings plan Purchaser': {
    actions: ['Microsoft.BillingBenefits/savingsPlanOrders/*', 'Microsoft.BillingBenefits/*/read'],
    notActions: [],
  },
  Owner: { actions: ['*'], notActions: [] },
};

export const simulatedCloudFile = 'simulated-cloud.json';

export function emptyCloud(): SimulatedCloud {
  return { aws: {}, azure: {} };
}

export async function readSimulatedCloud(dir: string): Promise<SimulatedCloud> {
  try {
    const cloud = JSON.parse(await readFile(join(dir, simulatedCloudFile), 'utf8')) as SimulatedCloud;
    return { ...emptyCloud(), ...cloud };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyCloud();
    throw error;
  }
}

/** Writes the document whole (through a rename, so a concurrent reader never sees half of it). */
export async function writeSimulatedCloud(dir: string, cloud: SimulatedCloud): Promise<void> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, simulatedCloudFile);
  await writeFile(`${path}.tmp`, `${JSON.stringify(cloud, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}

export async function changeSimulatedCloud(
  dir: string,
  change: (cloud: SimulatedCloud) => void,
): Promise<SimulatedCloud> {
  const cloud = await readSimulatedCloud(dir);
  change(cloud);
  await writeSimulatedCloud(dir, cloud);
  return cloud;
}

/** An account set up as the onboarding asks: the role, an hourly Parquet export with resource ids, delivered, every permission. */
export function connectedAwsAccount(input: {
  readonly serviceAccountId: string;
  readonly externalId: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly reportName: string;
}): SimulatedAwsAccount {
  return {
    role: {
      name: onboardingRoleName,
      trusted_account: input.serviceAccountId,
      external_id: input.externalId,
    },
    exports: [
      {
        name: input.reportName,
        source: 'data-exports',
        granularity: 'HOURLY',
        format: 'parquet',
        resource_ids: true,
        bucket: input.bucket,
        prefix: input.prefix,
      },
    ],
    buckets: {
      [input.bucket]: {
        objects: [`${input.prefix}/${input.reportName}/data/BILLING_PERIOD=2026-11/part-0.snappy.parquet`],
      },
    },
    permissions: { exports: true, bucket: true, cost_explorer: true, purchase: true },
    throttled: [],
  };
}

export function connectedAzureTenant(subscriptionId: string): SimulatedAzureTenant {
  return {
    consent: true,
    subscriptions: {
      [subscriptionId]: {
        display_name: 'Production',
        cost_exports: ['daily-focus-cost'],
        role_assignments: [
          'Reader',
          'Cost Management Reader',
          'Reservation Purchaser',
          'Savings plan Purchaser',
        ],
      },
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The AWS side of the simulated cloud, as the service account `serviceAccountId` sees it. */
export function simulatedAwsProbe(dir: string, serviceAccountId: string): AwsAccountProbe {
  return {
    async assumeRole(request: AwsVerificationRequest): Promise<AwsAccountSession> {
      let cloud = await readSimulatedCloud(dir);
      await sleep(cloud.latency_ms ?? 0);
      const account = cloud.aws[request.accountId];
      if (account?.throttled.includes('assume_role')) throw throttled();
      const role = account?.role;
      const roleName = request.roleArn.split('/').pop();
      if (
        !role ||
        role.name !== roleName ||
        role.trusted_account !== serviceAccountId ||
        role.external_id !== request.externalId
      ) {
        throw new ProviderError(
          'AccessDenied',
          `User: arn:aws:sts::${serviceAccountId}:assumed-role/commitment-planning-onboarding/verifier is not authorized to perform: sts:AssumeRole on resource: ${request.roleArn}`,
        );
      }
      // Each call reads the document again: a change made meanwhile shows, as on a real account.
      const call = async (name: AwsCall): Promise<SimulatedAwsAccount> => {
        cloud = await readSimulatedCloud(dir);
        await sleep(cloud.latency_ms ?? 0);
        const current = cloud.aws[request.accountId] ?? account;
        if (current.throttled.includes(name)) throw throttled();
        return current;
      };
      const findExport = async (source: CostExport['source'], name: string | null) => {
        const current = await call('exports');
        if (!current.permissions.exports) {
          throw new ProviderError(
            'AccessDeniedException',
            `User is not authorized to perform: ${source === 'data-exports' ? 'bcm-data-exports:ListExports' : 'cur:DescribeReportDefinitions'}`,
          );
        }
        const found = current.exports.find(
          (candidate) => candidate.source === source && (name === null || candidate.name === name),
        );
        return found
          ? {
              name: found.name,
              source: found.source,
              granularity: found.granularity,
              format: found.format,
              includesResourceIds: found.resource_ids,
              bucket: found.bucket,
              prefix: found.prefix,
              region: 'us-east-1',
            }
          : null;
      };
      return {
        findDataExport: (name) => findExport('data-exports', name),
        findLegacyReport: (name) => findExport('legacy-cur', name),
        async listObjects(location) {
          const current = await call('bucket');
          const bucket = current.buckets[location.bucket];
          if (!bucket) throw new ProviderError('NoSuchBucket', 'The specified bucket does not exist');
          if (!current.permissions.bucket) throw new ProviderError('AccessDenied', 'Access Denied');
          return { keys: bucket.objects.filter((key) => key.startsWith(location.prefix)) };
        },
        async queryCostExplorer() {
          const current = await call('cost_explorer');
          if (!current.permissions.cost_explorer) {
            throw new ProviderError(
              'AccessDeniedException',
              `User: ${request.roleArn} is not authorized to perform: ce:GetCostAndUsage`,
            );
          }
        },
        async dryRunReservationPurchase() {
          const current = await call('purchase');
          if (!current.permissions.purchase) {
            throw new ProviderError(
              'UnauthorizedOperation',
              'You are not authorized to perform this operation.',
            );
          }
        },
      };
    },
  };
}

function throttled(): ProviderError {
  return new ProviderError('ThrottlingException', 'Rate exceeded');
}

/** The Azure side of the simulated cloud: sign-in works once a tenant's admin consented. */
export function simulatedAzureProbe(dir: string, clientId: string): AzureTenantProbe {
  return {
    async signIn(tenantId): Promise<AzureTenantSession> {
      const cloud = await readSimulatedCloud(dir);
      await sleep(cloud.latency_ms ?? 0);
      const tenant = cloud.azure[tenantId];
      if (!tenant) {
        throw new ProviderError('invalid_request', `AADSTS90002: Tenant '${tenantId}' not found.`);
      }
      if (!tenant.consent) {
        throw new ProviderError(
          'invalid_client',
          `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${tenantId}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant.`,
        );
      }
      const subscriptionOf = async (subscriptionId: string) => {
        const current = await readSimulatedCloud(dir);
        await sleep(current.latency_ms ?? 0);
        const subscription = current.azure[tenantId]?.subscriptions[subscriptionId];
        if (!subscription) {
          throw new ProviderError(
            'SubscriptionNotFound',
            `The subscription '${subscriptionId}' could not be found.`,
          );
        }
        if (subscription.throttled)
          throw new ProviderError('TooManyRequests', 'Too many requests, retry later.');
        return subscription;
      };
      const permissionsOf = (assignments: readonly string[]) =>
        assignments.flatMap((role) => (azureRoles[role] ? [azureRoles[role]] : []));
      const authorizationFailed = (action: string, subscriptionId: string) =>
        new ProviderError(
          'AuthorizationFailed',
          `The client '${clientId}' does not have authorization to perform action '${action}' over scope '/subscriptions/${subscriptionId}'.`,
        );
      return {
        async getSubscription(subscriptionId) {
          const subscription = await subscriptionOf(subscriptionId);
          if (subscription.role_assignments.length === 0) {
            throw new ProviderError(
              'SubscriptionNotFound',
              `The subscription '${subscriptionId}' could not be found.`,
            );
          }
          return { displayName: subscription.display_name };
        },
        async listCostExports(subscriptionId) {
          const subscription = await subscriptionOf(subscriptionId);
          const permissions = permissionsOf(subscription.role_assignments);
          if (!permits(permissions, 'Microsoft.CostManagement/exports/read')) {
            throw authorizationFailed('Microsoft.CostManagement/exports/read', subscriptionId);
          }
          return subscription.cost_exports;
        },
        async permissions(subscriptionId) {
          const subscription = await subscriptionOf(subscriptionId);
          return permissionsOf(subscription.role_assignments);
        },
      };
    },
  };
}
