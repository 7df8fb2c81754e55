import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../support/admin-cli';

/**
 * `admin set-org` (bin/admin.ts): the org's commitment sharing scope and renewal horizon, set by
 * an operator on the local store, recomputing the plans of the providers the org has inputs for;
 * and the execution policy's cap on upfront purchases.
 */

const fixtures = join(import.meta.dirname, '../fixtures/import');

describe('admin set-org', () => {
  let localDir: string;
  let orgId: string;

  beforeAll(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'admin-sharing-'));
    orgId = JSON.parse((await runAdmin(localDir, ['create-org', '--name', 'Sharing Co'])).stdout).org_id;
    const imported = await runAdmin(localDir, [
      'import-usage',
      '--org',
      orgId,
      '--file',
      join(fixtures, 'usage.csv'),
    ]);
    expect(imported.exitCode).toBe(0);
  });

  afterAll(async () => {
    await rm(localDir, { recursive: true, force: true });
  });

  it('sets the sharing scope and recomputes the plans of every provider with inputs', async () => {
    // Act
    const run = await runAdmin(localDir, ['set-org', '--org', orgId, '--sharing', 'account']);

    // Assess
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      org_id: orgId,
      commitment_sharing: 'account',
      renewal_horizon_days: 30,
      max_upfront_cost: null,
      recomputed_providers: ['aws', 'azure'],
    });
  });

  it('sets the renewal horizon and recomputes the plans; refuses a horizon that is not whole days', async () => {
    // Act
    const set = await runAdmin(localDir, ['set-org', '--org', orgId, '--renewal-horizon-days', '45']);
    const fractional = await runAdmin(localDir, ['set-org', '--org', orgId, '--renewal-horizon-days', '1.5']);
    const tooLong = await runAdmin(localDir, ['set-org', '--org', orgId, '--renewal-horizon-days', '366']);

    // Assess
    expect(set.exitCode).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      org_id: orgId,
      commitment_sharing: 'account',
      renewal_horizon_days: 45,
      max_upfront_cost: null,
      recomputed_providers: ['aws', 'azure'],
    });
    for (const [run, value] of [
      [fractional, '1.5'],
      [tooLong, '366'],
    ] as const) {
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain(
        `--renewal-horizon-days must be a whole number of days from 0 to 365; got ${value}`,
      );
    }
  });

  it("sets and removes the execution policy's cap on a plan's upfront purchases", async () => {
    // Act
    const capped = await runAdmin(localDir, ['set-org', '--org', orgId, '--max-upfront-cost', '2500']);
    const uncapped = await runAdmin(localDir, ['set-org', '--org', orgId, '--max-upfront-cost', 'none']);
    const refused = await runAdmin(localDir, ['set-org', '--org', orgId, '--max-upfront-cost=-1']);

    // Assess
    expect(JSON.parse(capped.stdout)).toMatchObject({ org_id: orgId, max_upfront_cost: 2500 });
    expect(JSON.parse(uncapped.stdout)).toMatchObject({ org_id: orgId, max_upfront_cost: null });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--max-upfront-cost must be dollars (0 or more) or none; got -1');
  });

  it('exits 2 naming the allowed scopes for an unknown one', async () => {
    // Act
    const run = await runAdmin(localDir, ['set-org', '--org', orgId, '--sharing', 'everyone']);

    // Assess
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('admin: --sharing must be one of organization, account; got everyone');
  });

  it('exits 1 for an unknown org', async () => {
    // Act
    const run = await runAdmin(localDir, ['set-org', '--org', 'no-such-org', '--sharing', 'organization']);

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('admin: Organization no-such-org not found');
  });
});
