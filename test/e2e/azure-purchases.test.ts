import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedCloud } from '../../local/simulated-cloud';
import { admin, runAdmin } from '../support/admin-cli';
import { callApi } from '../support/api-client';
import { type AzureVm, azureFocusCsv } from '../support/azure-focus-files';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { settledPlanOf } from '../support/settled-plan';

/**
 * Azure lines bought through ARM in `npm start` (docs/purchases.md, Locally): the demo customer's
 * subscription delivers a month of two on-demand VMs, a sync plans them, applying the plan buys
 * its reservations through the simulated tenant's ARM over HTTP, the next sync reads exactly those
 * reservations back, and the next plan of the same profile buys nothing more.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let server: LocalServer;
let orgId: string;
let apiKey: string;
let subscriptionId: string;
let tenantId: string;

// biome-ignore lint/suspicious/noExplicitAny: plans and purchases as the API answered them
type Json = any;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  const { org, cloud } = server.credentials;
  if (!cloud) throw new Error('the demo seed connected no simulated cloud');
  orgId = org.org_id;
  apiKey = org.api_key;
  subscriptionId = cloud.azure.subscription_id;
  tenantId = cloud.azure.tenant_id;
});

afterAll(async () => {
  await server?.stop();
});

const get = async (path: string): Promise<Json> => {
  const response = await callApi(server.baseUrl, path, { apiKey });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const plansPath = () => `/v1/org/${orgId}/commitment-plans`;
const lineItems = async (planId: string): Promise<Json[]> =>
  get(`${plansPath()}/${planId}/line-items?page_size=100`);
const toBuy = (lines: Json[]) =>
  lines.filter((line) => line.is_selected && (line.selected_quantity > 0 || line.selected_commitment > 0));

async function sync(): Promise<Json> {
  const run = await runAdmin(server.dir, ['sync', '--org', orgId, '--provider', 'azure']);
  expect(run.exitCode, run.stderr).toBe(0);
  return JSON.parse(run.stdout).providers[0];
}

/** The plan once the processor settled it (settledPlanOf). */
const settled = (planId: string): Promise<Json> =>
  settledPlanOf(() => callApi(server.baseUrl, `${plansPath()}/${planId}`, { apiKey }));

describe('Azure lines in npm start', () => {
  it('are bought through the simulated ARM, read back by the next sync once, and the next plan buys nothing more', async () => {
    // Prepare: a month of two D4s v5 VMs on demand in eastus, synced into plans.
    const files = await mkdtemp(join(tmpdir(), 'azure-purchases-'));
    const lastHour = Math.floor(Date.now() / HOUR_MS) - 2;
    const period = new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 7);
    const first = Date.parse(`${period}-01T00:00:00Z`) / HOUR_MS;
    const vm: AzureVm = {
      subscriptionId,
      name: 'web-1',
      region: 'eastus',
      size: 'Standard_D4s_v5',
      meterName: 'D4s v5',
      meterSubcategory: 'Dsv5 Series',
      listPrice: 0.192,
      pricing: 'Standard',
    };
    const focus = join(files, 'focus.csv');
    await writeFile(
      focus,
      azureFocusCsv(
        [vm, { ...vm, name: 'web-2' }],
        new Date(first * HOUR_MS).toISOString(),
        lastHour - first + 1,
      ),
    );
    await admin(server.dir, [
      'simulate-cloud',
      'azure',
      '--subscription',
      subscriptionId,
      '--deliver',
      focus,
      '--period',
      period,
    ]);
    await sync();
    // The plan of the profile that reserves (lines that are no lease): Azure sells those through ARM.
    let plan: Json;
    for (const candidate of (await get(`${plansPath()}/default?provider=azure`)) as Json[]) {
      const lines = toBuy(await lineItems(candidate.id));
      if (!plan && lines.some((line) => line.lease_menu_item_id === null)) plan = candidate;
    }
    expect(plan, 'an Azure plan that reserves').toBeDefined();

    // Act: apply over HTTP; the processor buys through ARM.
    const applied = await callApi(server.baseUrl, `${plansPath()}/${plan.id}/apply`, {
      method: 'POST',
      apiKey,
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const done = await settled(plan.id);
    const purchases = (await get(`${plansPath()}/${plan.id}/purchases?page_size=100`)) as Json[];
    const cloud = await admin<SimulatedCloud>(server.dir, ['simulate-cloud', 'show']);
    const afterSync = await sync();
    const next = ((await get(`${plansPath()}/default?provider=azure`)) as Json[]).find(
      (each) => each.name === plan.name,
    );

    // Assess: every line bought, one ARM order per reservation line, its ids on the purchase.
    expect(done.status, JSON.stringify(purchases)).toBe('completed');
    const reservations = purchases.filter((purchase) => purchase.contract_type === 'vm');
    expect(reservations.length, JSON.stringify(purchases)).toBeGreaterThan(0);
    const orders = Object.values(cloud.azure[tenantId]?.arm?.reservation_orders ?? {});
    expect(orders).toHaveLength(reservations.length);
    for (const order of orders) {
      const purchase = purchases.find((each) => each.provider_ids?.includes(order.reservation.id));
      expect(purchase?.status, JSON.stringify(purchases)).toBe('completed');
    }
    // The sync reads the tenant's reservations (exactly those ARM sold) and writes none of them
    // again: each is matched to its purchase, which the org owns already.
    expect(orders.every((order) => order.reservation.properties?.provisioningState === 'Succeeded')).toBe(
      true,
    );
    expect(afterSync.commitments).toBe(0);
    expect(toBuy(await lineItems(next.id))).toEqual([]);
  });
});
