import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOrg, createPartner, createUserKey } from '../app/operator';
import type { AppContext } from '../app/ports';

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
 * The demo a first start seeds: a partner org with its partner key, and a customer org registered
 * as that partner's child with an admin user and its key.
 */
export async function seedDemo(ctx: AppContext, baseUrl: string): Promise<DemoCredentials> {
  const { org: partner, key: partnerKey } = await createPartner(ctx, demoPartnerName);
  const customer = await createOrg(ctx, demoOrgName, partner.id);
  const { key: userKey } = await createUserKey(ctx, customer.id, demoUserEmail, 'admin');
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
