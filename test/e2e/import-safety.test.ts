import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, type CreatedOrg, runAdmin, spawnAdmin } from '../support/admin-cli';
import { callApi } from '../support/api-client';
import { collectText } from '../support/entry-point-process';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { alwaysOn, type FleetResource, fleet, gcpN2Standard8, usageLines } from '../support/usage-files';
import { waitFor } from '../support/wait-for';

/**
 * Inputs that cannot be trusted (docs/plan-engine.md), over the admin CLI and HTTP against the real local
 * server: a future-dated row, an import killed half-way, and the plan ids an import supersedes.
 *
 * The killed import whose lease runs out is the file's long wait: it has an org of its own
 * (`leasedOrgId`), and the other cases run meanwhile, in order, on another (`orgId`).
 */

let server: LocalServer;
let partnerKey: string;
let orgId: string;
let leasedOrgId: string;

const gce = (count: number, prefix: string, unitsAt: (hour: number) => number): FleetResource[] =>
  fleet(count, prefix, {
    ...gcpN2Standard8,
    unitsAt,
  });

async function usageFile(name: string, lines: readonly string[]): Promise<string> {
  const path = join(server.dir, name);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

/** The org's default GCP plans (#6): their ids and whether they are current. */
/**
 * Waits until the import `importing` says it writes the gcp usage of 2026-08 (its progress on
 * stderr); fails at once with what it printed when it exits before.
 */
function writingStarted(importing: ChildProcess, progress: () => string): Promise<true> {
  return waitFor(async () => (progress().includes('writing gcp usage of 2026-08') ? true : undefined), {
    gaveUp: () =>
      importing.exitCode !== null
        ? `the import exited (${importing.exitCode}) first:\n${progress()}`
        : undefined,
  });
}

async function defaultPlans(org = orgId): Promise<{ ids: string[]; calculating: boolean[] }> {
  const response = await callApi(server.baseUrl, `/v1/org/${org}/commitment-plans/default?provider=gcp`, {
    apiKey: partnerKey,
  });
  expect(response.status).toBe(200);
  const plans = response.body as { id: string; is_calculating: boolean }[];
  return { ids: plans.map((plan) => plan.id), calculating: plans.map((plan) => plan.is_calculating) };
}

/** A new org of the partner with October's usage of 4 always-on VMs imported: its id. */
async function orgWithOctober(name: string, october: string): Promise<string> {
  const org = await admin<CreatedOrg>(server.dir, [
    'create-org',
    '--name',
    name,
    '--partner',
    server.credentials.partner.org_id,
  ]);
  await admin(server.dir, ['import-usage', '--org', org.org_id, '--file', october]);
  return org.org_id;
}

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  partnerKey = server.credentials.partner.api_key;
  const october = await usageFile(
    'october.csv',
    usageLines('2026-10-01T00:00:00Z', 720, gce(4, 'vm', alwaysOn)),
  );
  [orgId, leasedOrgId] = await Promise.all([
    orgWithOctober('Untrusted Inputs Co', october),
    orgWithOctober('Leased Inputs Co', october),
  ]);
});

afterAll(async () => {
  await server?.stop();
});

describe.concurrent('an import killed half-way', () => {
  it('neither counts as current nor blocks the plans for good; the plans it supersedes answer 404', async () => {
    // Prepare: a file large enough (over 100,000 rows, two months) to be killed while it writes,
    // imported with a lease short enough to wait for, long enough for the CLI runs inside it on a
    // loaded machine.
    const before = await defaultPlans(leasedOrgId);
    const large = await usageFile(
      'large.csv',
      usageLines('2026-08-01T00:00:00Z', 1464, gce(70, 'big', alwaysOn)),
    );
    const small = await usageFile(
      'small.csv',
      usageLines(
        '2026-10-01T00:00:00Z',
        720,
        gce(3, 'vm', (t) => (t % 4 < 3 ? 1 : 0)),
      ),
    );
    const importing = spawnAdmin(server.dir, [
      'import-usage',
      '--org',
      leasedOrgId,
      '--file',
      large,
      '--lease-seconds',
      '30',
    ]);
    const exited = once(importing, 'exit');
    const progress = collectText(importing.stderr);
    await writingStarted(importing, progress);

    // Act
    importing.kill('SIGKILL');
    await exited;
    const whileLeased = await defaultPlans(leasedOrgId);
    const refused = await runAdmin(server.dir, ['import-usage', '--org', leasedOrgId, '--file', small]);
    await waitFor(
      async () =>
        (await defaultPlans(leasedOrgId)).calculating.join() === 'false,false,false' ? true : undefined,
      { everyMs: 1_000 },
    );
    const afterLease = await defaultPlans(leasedOrgId);
    const next = await runAdmin(server.dir, ['import-usage', '--org', leasedOrgId, '--file', small]);
    const current = await defaultPlans(leasedOrgId);
    const superseded = before.ids[0] as string;
    const oldLineItems = await callApi(
      server.baseUrl,
      `/v1/org/${leasedOrgId}/commitment-plans/${superseded}/line-items`,
      { apiKey: partnerKey },
    );
    const oldMatches = await callApi(
      server.baseUrl,
      `/v1/org/${leasedOrgId}/commitment-plans/${superseded}/resource-matches?start_date=2026-10-01&end_date=2026-10-30`,
      { apiKey: partnerKey },
    );
    const newLineItems = await callApi(
      server.baseUrl,
      `/v1/org/${leasedOrgId}/commitment-plans/${current.ids[0]}/line-items`,
      { apiKey: partnerKey },
    );

    // Assess: while its lease holds, the killed import keeps the plans from counting as current
    // and refuses a second import; once it ran out, the plans of the inputs before it are current
    // again (never plans of its half-written usage) and the next import runs without --take-over.
    expect(whileLeased).toEqual({ ids: before.ids, calculating: [true, true, true] });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/An import of gcp data for organization \S+ is running .*--take-over/);
    expect(afterLease.ids).toEqual(before.ids);
    expect(next.exitCode).toBe(0);
    expect(current.calculating).toEqual([false, false, false]);
    expect(current.ids.some((id) => before.ids.includes(id))).toBe(false);
    expect(oldLineItems.status).toBe(404);
    expect(oldLineItems.body.message).toBe(`Commitment plan ${superseded} not found`);
    expect(oldMatches.status).toBe(404);
    expect(newLineItems.status).toBe(200);
  });
});

describe.concurrent('meanwhile, on another org', () => {
  describe.sequential('in order', () => {
    describe('a future-dated usage row', () => {
      it('is refused with its line number, and nothing of the file is stored', async () => {
        // Prepare: a typo in the year on line 3.
        const before = await defaultPlans();
        const lines = usageLines('2026-10-01T00:00:00Z', 2, gce(1, 'vm', alwaysOn));
        lines[2] = (lines[2] as string).replace('2026-10-01T01:00:00Z', '2062-10-01T01:00:00Z');
        const file = await usageFile('typo.csv', lines);

        // Act
        const run = await runAdmin(server.dir, ['import-usage', '--org', orgId, '--file', file]);
        const after = await defaultPlans();

        // Assess
        expect(run.exitCode).toBe(1);
        expect(run.stderr).toMatch(
          /^line 3: timestamp 2062-10-01T01:00:00Z is in the future: rows may be at most 1 hour after the import's time, \S+Z$/m,
        );
        expect(after).toEqual(before);
      });
    });

    describe('an import killed half-way', () => {
      it('is taken over at once with --take-over', async () => {
        // Prepare: an import holding a long lease, killed. Its resources are not the first killed
        // import's: a month whose writes would change nothing prints no progress.
        const before = await defaultPlans();
        const large = await usageFile(
          'large-2.csv',
          usageLines('2026-08-01T00:00:00Z', 1464, gce(70, 'other', alwaysOn)),
        );
        const file = await usageFile(
          'again.csv',
          usageLines('2026-10-01T00:00:00Z', 720, gce(2, 'vm', alwaysOn)),
        );
        const importing = spawnAdmin(server.dir, ['import-usage', '--org', orgId, '--file', large]);
        const exited = once(importing, 'exit');
        const progress = collectText(importing.stderr);
        await writingStarted(importing, progress);
        importing.kill('SIGKILL');
        await exited;

        // Act
        const takeOver = await runAdmin(server.dir, [
          'import-usage',
          '--org',
          orgId,
          '--file',
          file,
          '--take-over',
        ]);
        const after = await defaultPlans();

        // Assess
        expect(takeOver.exitCode).toBe(0);
        expect(after.calculating).toEqual([false, false, false]);
        expect(after.ids.some((id) => before.ids.includes(id))).toBe(false);
      });
    });

    describe('usage stored with hours in the future', () => {
      it('has nothing to repair once future rows are refused', async () => {
        // Act
        const repair = await admin(server.dir, ['repair-usage', '--org', orgId, '--provider', 'gcp']);

        // Assess
        expect(repair).toMatchObject({
          org_id: orgId,
          provider: 'gcp',
          repaired: false,
          last_hour: '2026-10-30T23:00:00Z',
        });
      });
    });
  });
});
