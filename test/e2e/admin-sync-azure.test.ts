import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, runAdmin } from '../support/admin-cli';
import { callApi } from '../support/api-client';
import { type AzureVm, azureFocusCsv } from '../support/azure-focus-files';
import { type LocalServer, startLocalServer } from '../support/local-server';

/**
 * `admin sync --provider azure` (bin/admin/sync-command.ts) run as a process on a local server:
 * a FOCUS file is delivered into the demo customer's consented Azure subscription with
 * `simulate-cloud azure --deliver`, a VM reservation it owns with `--commitments`, and the sync
 * reads both into the customer's Azure plans.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let server: LocalServer;
let files: string;
let orgId: string;
let apiKey: string;
let subscriptionId: string;

// biome-ignore lint/suspicious/noExplicitAny: plans as the API answered them
type Json = any;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  files = await mkdtemp(join(tmpdir(), 'admin-sync-azure-'));
  const { org, cloud } = server.credentials;
  if (!cloud) throw new Error('the demo seed connected no simulated cloud');
  orgId = org.org_id;
  apiKey = org.api_key;
  subscriptionId = cloud.azure.subscription_id;
});

afterAll(async () => {
  await server?.stop();
});

async function azurePlan(): Promise<Json> {
  const response = await callApi(server.baseUrl, `/v1/org/${orgId}/commitment-plans/default?provider=azure`, {
    apiKey,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as Json[])[0];
}

function simulate(...args: string[]) {
  return admin<{ azure: { delivered?: { key: string; files: string[] } } }>(server.dir, [
    'simulate-cloud',
    'azure',
    '--subscription',
    subscriptionId,
    ...args,
  ]);
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The hours of the month of two days ago, from its first to the hour before last. */
function deliveredHours(): { period: string; start: string; hours: number } {
  const lastHour = Math.floor(Date.now() / HOUR_MS) - 2;
  const period = new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 7);
  const first = Date.parse(`${period}-01T00:00:00Z`) / HOUR_MS;
  return { period, start: new Date(first * HOUR_MS).toISOString(), hours: lastHour - first + 1 };
}

const web: AzureVm = {
  subscriptionId: '',
  name: 'web-1',
  region: 'eastus',
  size: 'Standard_D4s_v5',
  meterName: 'D4s v5',
  meterSubcategory: 'Dsv5 Series',
  listPrice: 0.192,
  pricing: 'Committed',
};

describe('admin sync --provider azure', () => {
  it('reads the FOCUS export and the reservation the subscription owns into the Azure plans, once', async () => {
    // Prepare: a reservation of one D4s v5 in eastus at $0.12 an hour, in force over the whole lookback.
    const vm = { ...web, subscriptionId };
    const { period, start, hours } = deliveredHours();
    const focus = join(files, 'focus.csv');
    await writeFile(focus, azureFocusCsv([vm], start, hours));
    const reservationStart = Date.now() - 100 * DAY_MS;
    const commitments = join(files, 'commitments.csv');
    await writeFile(
      commitments,
      [
        'provider,account_id,region,contract_type,instance_type,quantity,hourly_commitment,upfront_cost,recurring_cost,start,end,lockin_end',
        `azure,${subscriptionId},eastus,vm,Standard_D4s_v5,1,0,0,0.12,${day(reservationStart)},${day(reservationStart + 365 * DAY_MS)},`,
      ].join('\n'),
    );
    const before = await azurePlan();
    await simulate('--deliver', focus, '--period', period);
    await simulate('--commitments', commitments);

    // Act
    const first = await runAdmin(server.dir, ['sync', '--org', orgId, '--provider', 'azure']);
    const after = await azurePlan();
    const second = await runAdmin(server.dir, ['sync', '--org', orgId, '--provider', 'azure']);

    // Assess: each hour has the VM's row and two others (a disk, a spot VM), plus one purchase
    // line (test/support/azure-focus-files.ts): 3 x hours + 1 rows, one resource.
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      org_id: orgId,
      providers: [
        {
          provider: 'azure',
          files_read: 1,
          files_skipped: 0,
          rows: 3 * hours + 1,
          used_rows: hours,
          skipped: expect.objectContaining({ not_usage: 1, spot: hours, not_instance_hours: hours }),
          skipped_examples: expect.objectContaining({
            not_usage: expect.objectContaining({ row: expect.any(Number) }),
          }),
          resources: 1,
          commitments: 1,
          first_hour: start.replace('.000Z', 'Z'),
          last_hour: new Date(Date.parse(start) + (hours - 1) * HOUR_MS).toISOString().replace('.000Z', 'Z'),
          refused: [],
        },
      ],
    });
    // The reservation costs $0.12 an hour over the whole lookback: the plan's existing
    // commitments cost that much more an hour than before the sync.
    expect(after.before_reserved_cost_hourly - before.before_reserved_cost_hourly).toBeCloseTo(0.12, 6);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).providers).toEqual([
      expect.objectContaining({ files_read: 0, files_skipped: 1, rows: 0, commitments: 1, first_hour: null }),
    ]);
  });

  it('fails naming a corrupt file, with exit code 1, and changes nothing', async () => {
    // Prepare: a new run of the month holding the file read before and a broken gzip file.
    const bad = join(files, 'bad.csv.gz');
    await writeFile(bad, 'not gzip at all');
    const delivered = await simulate('--deliver', bad, '--period', deliveredHours().period);
    const before = await azurePlan();

    // Act
    const run = await runAdmin(server.dir, ['sync', '--org', orgId, '--provider', 'azure']);
    const after = await azurePlan();

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(delivered.azure.delivered?.key);
    expect(delivered.azure.delivered?.key).toMatch(/part_0_0002\.csv\.gz$/);
    expect(after.id).toBe(before.id);
    expect(after.before_reserved_cost_hourly).toBe(before.before_reserved_cost_hourly);
  });
});
