import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storeProviderCommitments } from '../shared/app/import-commitments';
import { storeProviderUsage } from '../shared/app/import-usage';
import { createOperatorClient } from '../shared/app/oauth/clients';
import {
  ensureOnboarding,
  type OnboardingContext,
  verifyAwsOnboarding,
  verifyAzureOnboarding,
} from '../shared/app/onboarding';
import { createOrg, createPartner, createUserKey } from '../shared/app/operator';
import { refreshPlans } from '../shared/app/plan-computation';
import type { AppContext, CloudVerifier, TenantSignIn } from '../shared/app/ports';
import { syncUsage } from '../shared/app/usage-sync';
import { loadCatalog } from '../shared/domain/catalog/catalog';
import type { ExistingCommitment, UsageStream, UsageWindow } from '../shared/domain/engine/shapes/model';
import type { Principal } from '../shared/domain/principal';
import { providerUsageFromStreams } from '../shared/domain/usage/imported-usage';
import { syncExportReaders } from '../shared/exports/read-export';
import { deliverDemoAwsExport } from './demo/demo-aws-export';
import { generateCommitments } from './demo/synthetic-commitments';
import { generateFleet } from './demo/synthetic-fleet';
import { localAzureClientId } from './local-onboarding';
import { simulatedAzureUsageSources } from './simulated-azure-usage-sources';
import { changeSimulatedCloud, connectedAwsAccount, connectedAzureTenant } from './simulated-cloud';
import { defaultSimulatedAdministrator } from './simulated-identity-provider';
import { consentAsSimulatedTenantUser, type SimulatedMicrosoftPages } from './simulated-tenant-consent';
import { simulatedAwsUsageSources } from './simulated-usage-sources';

/** `.local/credentials.json`: what a newcomer needs to call the local API. */
export interface DemoCredentials {
  readonly base_url: string;
  readonly partner: { readonly org_id: string; readonly api_key: string };
  readonly org: { readonly org_id: string; readonly api_key: string; readonly user_email: string };
  /** The demo customer's simulated clouds, connected (absent in credentials of earlier versions). */
  readonly cloud?: DemoCloud;
}

export interface DemoCloud {
  readonly aws: {
    readonly account_id: string;
    readonly existing_cur: {
      readonly region: string;
      readonly bucket: string;
      readonly prefix: string;
      readonly report_name: string;
    };
  };
  readonly azure: { readonly tenant_id: string; readonly subscription_id: string };
}

/** The demo customer's AWS account and Azure tenant in the simulated cloud. */
export const demoCloud: DemoCloud = {
  aws: {
    account_id: '210987654321',
    existing_cur: {
      region: 'us-east-1',
      bucket: 'demo-customer-cost-exports',
      prefix: 'cur',
      report_name: 'demo-hourly',
    },
  },
  azure: {
    tenant_id: 'b8c3a9d2-4f1e-4c6a-9a57-0d3e2f1a7c55',
    subscription_id: '5f2c8e1a-7b3d-4e9f-a6c2-1d4b7e9f3a08',
  },
};

export const demoPartnerName = 'Demo Partner';
export const demoOrgName = 'Demo Customer';
export const demoUserEmail = 'admin@demo-customer.example';

const credentialsFile = 'credentials.json';

/**
 * The demo's OAuth client: public (PKCE, no secret), redirecting to a loopback address on any
 * port, as a command-line tool or a local MCP client would.
 */
export const demoOAuthClient = {
  clientId: 'demo-client',
  name: 'Demo client',
  redirectUri: 'http://127.0.0.1/callback',
} as const;

/** Registers the demo OAuth client unless it exists (also on starts from an earlier seed). */
export async function ensureDemoOAuthClient(ctx: AppContext): Promise<void> {
  if ((await ctx.repos.oauthClients.getClient(demoOAuthClient.clientId)) !== null) return;
  await createOperatorClient(ctx, {
    clientId: demoOAuthClient.clientId,
    name: demoOAuthClient.name,
    redirectUris: [demoOAuthClient.redirectUri],
    authMethod: 'none',
  });
}

/**
 * The demo customer's clouds: 30 days of generated hourly usage and a few owned commitments on
 * AWS and Azure. No GCP usage, so GCP shows how a provider without plans answers.
 */
const demoFleets = {
  aws: { provider: 'aws', streams: 120, commitments: 4 },
  azure: { provider: 'azure', streams: 60, commitments: 3 },
} as const;
const demoLookbackHours = 720;
const HOUR_MS = 3_600_000;

/**
 * The demo a first start seeds: a partner org with its partner key, and a customer org registered
 * as that partner's child with an admin user and its key, its clouds connected and verified, and
 * (with `usage`) usage and commitments to plan for.
 */
export async function seedDemo(
  ctx: AppContext,
  baseUrl: string,
  options: { readonly usage: boolean; readonly onboarding: DemoOnboarding },
): Promise<DemoCredentials> {
  const { org: partner, key: partnerKey } = await createPartner(ctx, demoPartnerName);
  const customer = await createOrg(ctx, demoOrgName, partner.id);
  const { key: userKey } = await createUserKey(ctx, customer.id, demoUserEmail, 'admin');
  await seedDemoClouds({ ...ctx, ...options.onboarding }, partner.id, customer.id, options.usage);
  return {
    base_url: baseUrl,
    partner: { org_id: partner.id, api_key: partnerKey.apiKey },
    org: { org_id: customer.id, api_key: userKey.apiKey, user_email: demoUserEmail },
    cloud: demoCloud,
  };
}

/**
 * What seeding the demo's clouds needs: the onboarding runtime, the simulated identity platform
 * the demo tenant's administrator consents on, and where the simulated cloud lives.
 */
export interface DemoOnboarding {
  readonly verifier: CloudVerifier;
  readonly onboarding: OnboardingContext['onboarding'];
  readonly tenantSignIn: TenantSignIn;
  readonly microsoftPages: SimulatedMicrosoftPages;
  /** The consent callback's URL on the listening local server. */
  readonly callbackUrl: string;
  readonly dir: string;
}

type DemoCloudContext = AppContext & OnboardingContext & DemoOnboarding;

/**
 * Connects the demo customer's clouds as a customer would: the AWS role deployed from the
 * template (with the org's external id) and an hourly CUR 2.0 Parquet export, and the Azure
 * tenant's consent; with `usage`, AWS delivers the export of the demo's AWS fleet; then verifies
 * both as the partner, so that its checklists come back `available`, and plans: AWS from the
 * export, read by a usage sync as the deployed service reads it (docs/usage-sync.md), Azure from
 * usage stored directly.
 */
async function seedDemoClouds(ctx: DemoCloudContext, partnerId: string, customerId: string, usage: boolean) {
  const record = await ensureOnboarding(ctx, customerId);
  const { aws, azure } = demoCloud;
  const cur = aws.existing_cur;
  await changeSimulatedCloud(ctx.dir, (cloud) => {
    cloud.aws[aws.account_id] = connectedAwsAccount({
      serviceAccountId: ctx.onboarding.serviceAwsAccountId,
      externalId: record.externalId,
      bucket: cur.bucket,
      prefix: cur.prefix,
      reportName: cur.report_name,
    });
    cloud.azure[azure.tenant_id] = connectedAzureTenant(azure.subscription_id);
  });
  const fleets = usage ? demoFleetsOf(ctx) : null;
  if (fleets) {
    // The Azure fleet's other subscriptions are the tenant's too: its plans buy in them.
    await changeSimulatedCloud(ctx.dir, (cloud) => {
      const tenant = cloud.azure[azure.tenant_id];
      for (const { accountId } of fleets.azure.streams) {
        if (!tenant || tenant.subscriptions[accountId]) continue;
        const subscription = connectedAzureTenant(accountId).subscriptions[accountId];
        if (subscription) tenant.subscriptions[accountId] = { ...subscription, cost_exports: [] };
      }
    });
    await deliverDemoAwsExport({ dir: ctx.dir, accountId: aws.account_id, ...fleets.aws });
  }
  const partner: Principal = { kind: 'partner', orgId: partnerId, scopes: ['*'] };
  await verifyAwsOnboarding(ctx, partner, customerId, {
    onboardingId: record.onboardingId,
    accountId: aws.account_id,
    existingCur: { region: cur.region, bucket: cur.bucket, prefix: cur.prefix, reportName: cur.report_name },
  });
  // The tenant's administrator consents and signs in, as a customer does (the same proof as in production).
  const consent = await consentAsSimulatedTenantUser(ctx, {
    principal: partner,
    orgId: customerId,
    tenantId: azure.tenant_id,
    subscriptionId: azure.subscription_id,
    callbackUrl: ctx.callbackUrl,
    pages: ctx.microsoftPages,
    login: defaultSimulatedAdministrator(azure.tenant_id),
  });
  if (consent.outcome !== 'granted')
    throw new Error(`The demo tenant's consent failed: ${JSON.stringify(consent)}`);
  await verifyAzureOnboarding(ctx, partner, customerId);
  if (!fleets) return;
  await syncUsage(
    {
      ...ctx,
      awsSources: simulatedAwsUsageSources(ctx.dir, ctx.onboarding.serviceAwsAccountId, () =>
        ctx.clock.now(),
      ),
      // The demo's Azure usage is stored directly (below): nothing is delivered to its subscription.
      azureSources: simulatedAzureUsageSources(ctx.dir, localAzureClientId, () => ctx.clock.now()),
      ...syncExportReaders,
    },
    { orgId: customerId, provider: 'aws' },
  );
  const { streams, startHour, commitments } = fleets.azure;
  await storeProviderUsage(ctx, customerId, providerUsageFromStreams('azure', startHour, streams));
  await storeProviderCommitments(ctx, customerId, 'azure', commitments);
  // Computed now rather than by the first request, so the demo answers at once.
  await refreshPlans(ctx, customerId, 'azure');
}

/** The credentials a previous start wrote, or null on a first start. */
export async function readDemoCredentials(dir: string): Promise<DemoCredentials | null> {
  try {
    return JSON.parse(await readFile(join(dir, credentialsFile), 'utf8')) as DemoCredentials;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function writeDemoCredentials(dir: string, credentials: DemoCredentials): Promise<string> {
  const path = join(dir, credentialsFile);
  // The keys are secrets: readable by the owner only.
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return path;
}

interface DemoFleet {
  readonly streams: UsageStream[];
  readonly startHour: number;
  readonly commitments: ExistingCommitment[];
}

/** The demo fleets over the 30 days before the current hour, with the commitments their org owns. */
function demoFleetsOf(ctx: Pick<AppContext, 'clock'>): Record<'aws' | 'azure', DemoFleet> {
  const catalog = loadCatalog();
  const endHour = Math.floor(ctx.clock.now().getTime() / HOUR_MS);
  const startHour = endHour - demoLookbackHours;
  const window: UsageWindow = {
    start: new Date(startHour * HOUR_MS).toISOString(),
    hours: demoLookbackHours,
  };
  const fleetOf = (fleet: (typeof demoFleets)[keyof typeof demoFleets]): DemoFleet => {
    const seed = `demo-${fleet.provider}`;
    const streams = generateFleet({
      seed,
      provider: fleet.provider,
      streams: fleet.streams,
      window,
      catalog,
    });
    const commitments = generateCommitments({
      seed,
      provider: fleet.provider,
      streams,
      window,
      catalog,
      count: fleet.commitments,
    });
    return { streams, startHour, commitments };
  };
  return { aws: fleetOf(demoFleets.aws), azure: fleetOf(demoFleets.azure) };
}
