import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, runAdmin } from '../support/admin-cli';
import { callApi } from '../support/api-client';
import { fleetLineItems } from '../support/export-files';
import { cur2Parquet } from '../support/export-parquet-files';
import { type LocalServer, startLocalServer } from '../support/local-server';

/**
 * `admin sync` (bin/admin/sync-command.ts) run as a process on a local server: the demo
 * customer's simulated AWS account is verified through the onboarding API, a CUR 2.0 Parquet
 * export is delivered into it with `simulate-cloud aws --deliver`, and the sync reads it.
 */

let server: LocalServer;
let files: string;
let orgId: string;
let accountId: string;
let partner: { readonly orgId: string; readonly apiKey: string };

interface SyncAnswer {
  readonly org_id: string;
  readonly providers: readonly Record<string, unknown>[];
}

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  files = await mkdtemp(join(tmpdir(), 'admin-sync-'));
  const { org, cloud } = server.credentials;
  if (!cloud) throw new Error('the demo seed connected no simulated cloud');
  orgId = org.org_id;
  partner = { orgId: server.credentials.partner.org_id, apiKey: server.credentials.partner.api_key };
  accountId = cloud.aws.account_id;
  const onboarding = (rest: string) => `/v2/org/${orgId}/partners/onboarding/${rest}`;
  const started = await callApi(server.baseUrl, onboarding('start'), { method: 'POST', apiKey: org.api_key });
  const verified = await callApi(server.baseUrl, onboarding('aws/verify'), {
    method: 'POST',
    apiKey: org.api_key,
    json: {
      onboarding_id: started.body.onboarding_id,
      account_id: accountId,
      existing_cur: cloud.aws.existing_cur,
    },
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
});

afterAll(async () => {
  await server?.stop();
});

async function deliver(name: string, bytes: Uint8Array, period: string) {
  const path = join(files, name);
  await writeFile(path, bytes);
  const answer = await admin<{ aws: { delivered: { key: string } } }>(server.dir, [
    'simulate-cloud',
    'aws',
    '--account',
    accountId,
    '--deliver',
    path,
    '--period',
    period,
  ]);
  return answer.aws.delivered.key;
}

interface ChecklistItem {
  readonly feature: string;
  readonly status: string;
  readonly detail: string;
}

/** The org's `usage_sync` items as its partner's child-org listing (#21) answers them, over HTTP. */
async function usageSyncItems(): Promise<{ aws?: ChecklistItem; azure?: ChecklistItem }> {
  const children = await callApi(
    server.baseUrl,
    `/v2/org/${partner.orgId}/partners/onboarding/child-orgs?page_size=100`,
    { apiKey: partner.apiKey },
  );
  expect(children.status, JSON.stringify(children.body)).toBe(200);
  const child = (
    children.body as { org_id: string; integration_checklist: Record<string, ChecklistItem[]> }[]
  ).find((entry) => entry.org_id === orgId);
  const item = (provider: string) =>
    child?.integration_checklist[provider]?.find((entry) => entry.feature === 'usage_sync');
  return { aws: item('aws'), azure: item('azure') };
}

describe('admin sync', () => {
  it('reads a delivered export once, and nothing more on the next run', async () => {
    // Prepare
    expect(await usageSyncItems()).toEqual({
      aws: { feature: 'usage_sync', status: 'missing', detail: 'never synced' },
      azure: { feature: 'usage_sync', status: 'missing', detail: 'never synced' },
    });
    await deliver('june.parquet', cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 720)), '2026-06');

    // Act
    const first = await runAdmin(server.dir, ['sync', '--org', orgId]);
    const second = await admin<SyncAnswer>(server.dir, ['sync', '--org', orgId, '--provider', 'aws']);

    // Assess: 720 hours of 3 instance lines and 3 other lines an hour, and 3 lines a file
    // (test/support/export-files.ts).
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      org_id: orgId,
      providers: [
        {
          provider: 'aws',
          files_read: 1,
          files_skipped: 0,
          rows: 6 * 720 + 3,
          used_rows: 3 * 720,
          skipped: expect.objectContaining({ not_usage: expect.any(Number) }),
          skipped_examples: expect.objectContaining({
            not_usage: expect.objectContaining({ row: expect.any(Number) }),
          }),
          resources: 3,
          commitments: 0,
          first_hour: '2026-06-01T00:00:00Z',
          last_hour: '2026-06-30T23:00:00Z',
          refused: [],
        },
      ],
    });
    expect(first.stderr).toContain('aws: 1 files to read, 0 unchanged');
    expect(second.providers).toEqual([
      expect.objectContaining({ files_read: 0, files_skipped: 1, rows: 0, first_hour: null }),
    ]);
    // The second sync read nothing: its item says so (0 rows), and Azure was never synced.
    const items = await usageSyncItems();
    expect(items.aws).toMatchObject({ status: 'available' });
    expect(items.aws?.detail).toMatch(/^last synced \d{4}-\d\d-\d\dT[\d:.]+Z: 0 rows read, 0 used$/);
    expect(items.azure?.status).toBe('missing');
  });

  it('fails naming a corrupt file, with exit code 1', async () => {
    // Prepare
    const key = await deliver('bad.parquet', new TextEncoder().encode('PAR1 not parquet'), '2026-07');

    // Act
    const run = await runAdmin(server.dir, ['sync', '--org', orgId]);

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(key);
    const { aws } = await usageSyncItems();
    expect(aws?.status).toBe('warning');
    expect(aws?.detail).toContain(`failed reading ${key}: `);
    expect(aws?.detail).toMatch(/; the sync of \S+ is still used$/);
  });

  it('refuses a provider without a sync', async () => {
    // Act
    const run = await runAdmin(server.dir, ['sync', '--org', orgId, '--provider', 'gcp']);

    // Assess
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--provider must be one of aws, azure; got gcp');
  });
});
