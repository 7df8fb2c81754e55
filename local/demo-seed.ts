import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storeProviderCommitments } from '../shared/app/import-commitments';
import { storeProviderUsage } from '../shared/app/import-usage';
import { createOperatorClient } from '../shared/app/oauth/clients';
import { createOrg, createPartner, createUserKey } from '../shared/app/operator';
import { refreshPlans } from '../shared/app/plan-computation';
import type { AppContext } from '../shared/app/ports';
import { loadCatalog } from '../shared/domain/catalog/catalog';
import type { Provider, UsageWindow } from '../shared/domain/engine/model';
import { providerUsageFromStreams } from '../shared/domain/usage/imported-usage';
import { generateCommitments } from './demo/synthetic-commitments';
import { generateFleet } from './demo/synthetic-fleet';

/** `.local/credentials.json`: what a newcomer needs to call the local API. */
export interface DemoCredentials {
  readonly base_url: string;
  readonly partner: { readonly org_id: string; readonly api_key: string };
  readonly org: { readonly org_id: string; readonly api_key: string; readonly user_email: string };
}

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
  if ((await ctx.repos.oauth.getClient(demoOAuthClient.clientId)) !== null) return;
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
const demoFleets: readonly {
  readonly provider: Provider;
  readonly streams: number;
  readonly commitments: number;
}[] = [
  { provider: 'aws', streams: 120, commitments: 4 },
  { provider: 'azure', streams: 60, commitments: 3 },
];
const demoLookbackHours = 720;
const HOUR_MS = 3_600_000;

/**
 * The demo a first start seeds: a partner org with its partner key, and a customer org registered
 * as that partner's child with an admin user and its key, and usage and commitments to plan for.
 */
export async function seedDemo(
  ctx: AppContext,
  baseUrl: string,
  options: { readonly usage: boolean },
): Promise<DemoCredentials> {
  const { org: partner, key: partnerKey } = await createPartner(ctx, demoPartnerName);
  const customer = await createOrg(ctx, demoOrgName, partner.id);
  const { key: userKey } = await createUserKey(ctx, customer.id, demoUserEmail, 'admin');
  if (options.usage) await seedDemoUsage(ctx, customer.id);
  return {
    base_url: baseUrl,
    partner: { org_id: partner.id, api_key: partnerKey.apiKey },
    org: { org_id: customer.id, api_key: userKey.apiKey, user_email: demoUserEmail },
  };
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

/** Stores the demo fleets' usage over the 30 days before the current hour and their commitments, and plans for them. */
async function seedDemoUsage(ctx: AppContext, orgId: string): Promise<void> {
  const catalog = loadCatalog();
  const endHour = Math.floor(ctx.clock.now().getTime() / HOUR_MS);
  const startHour = endHour - demoLookbackHours;
  const window: UsageWindow = {
    start: new Date(startHour * HOUR_MS).toISOString(),
    hours: demoLookbackHours,
  };
  for (const fleet of demoFleets) {
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
    await storeProviderUsage(ctx, orgId, providerUsageFromStreams(fleet.provider, startHour, streams));
    await storeProviderCommitments(ctx, orgId, fleet.provider, commitments);
    // Computed now rather than by the first request, so the demo answers at once.
    await refreshPlans(ctx, orgId, fleet.provider);
  }
}
