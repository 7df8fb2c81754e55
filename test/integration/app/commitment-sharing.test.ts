/**
 * The org setting `commitment_sharing` (docs/plan-engine.md, Sharing scope): plans are computed with it,
 * and setting it makes the org's plans stale and computes them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg, setCommitmentSharing } from '../../../shared/app/operator';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { NotFoundError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { type FleetResource, recordsOf, usageLines } from '../../support/usage-files';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const n2 = {
  provider: 'gcp',
  region: 'us-central1',
  service: 'Compute Engine',
  instanceType: 'n2-standard-8',
  operatingSystem: 'Linux',
} as const;

/**
 * One n2-standard-8 in each of two projects, each running 35% of the hours, never at the same
 * time: together one instance runs 70% of the hours. The catalog's CUDs cost 0.63 (1 year) and
 * 0.45 (3 years) of on demand: with h = 0 ("High Savings") neither project alone justifies one
 * (0.35 < 0.45), both together do (0.7 > 0.45).
 */
const twoProjects: FleetResource[] = [
  { ...n2, accountId: 'project-a', resourceId: 'vm-a', unitsAt: (t) => (t % 20 < 7 ? 1 : 0) },
  { ...n2, accountId: 'project-b', resourceId: 'vm-b', unitsAt: (t) => (t % 20 >= 7 && t % 20 < 14 ? 1 : 0) },
];

async function highSavings(orgId: string, principal: Principal) {
  const plans = await listDefaultPlans(ctx, principal, orgId, 'gcp');
  const plan = plans.find((entry) => entry.name === 'High Savings');
  if (!plan) throw new Error('no High Savings plan');
  return plan;
}

describe('commitment sharing scope', () => {
  it('plans across projects by default, per project once set to account, and across them again', async () => {
    // Prepare
    const org = await createOrg(ctx, `Sharing ${randomIds.uuid()}`, null);
    const principal: Principal = {
      kind: 'user',
      orgId: org.id,
      userId: 'ada@example.com',
      role: 'admin',
      scopes: ['*'],
    };
    await importUsage(ctx, {
      orgId: org.id,
      records: recordsOf(usageLines('2026-06-01T00:00:00Z', 720, twoProjects)),
    });
    const shared = await highSavings(org.id, principal);

    // Act
    const perProject = await setCommitmentSharing(ctx, org.id, 'account');
    const afterPerProject = await highSavings(org.id, principal);
    const sharedAgain = await setCommitmentSharing(ctx, org.id, 'organization');
    const afterShared = await highSavings(org.id, principal);

    // Assess: the setting is stored and each change recomputed the GCP plans (new ids).
    expect(org.commitmentSharing).toBe('organization');
    expect(shared.savings_hourly).toBeGreaterThan(0);
    expect(perProject.org.commitmentSharing).toBe('account');
    expect(perProject.recomputed).toEqual(['gcp']);
    expect(afterPerProject.id).not.toBe(shared.id);
    expect(afterPerProject.savings_hourly).toBe(0);
    expect(sharedAgain.recomputed).toEqual(['gcp']);
    expect(afterShared.savings_hourly).toBeCloseTo(shared.savings_hourly, 12);
    expect((await ctx.repos.orgs.get(org.id))?.commitmentSharing).toBe('organization');
  });

  it('leaves a provider whose import is running to that import', async () => {
    // Prepare
    const org = await createOrg(ctx, `Importing ${randomIds.uuid()}`, null);
    await importUsage(ctx, {
      orgId: org.id,
      records: recordsOf(usageLines('2026-06-01T00:00:00Z', 24, twoProjects)),
    });
    const state = await ctx.repos.usage.usageState(org.id, 'gcp');
    const startedAt = new Date().toISOString();
    const sessionId = randomIds.uuid();
    const running = await ctx.repos.usage.openImport(
      org.id,
      'gcp',
      { sessionId, startedAt, expiresAt: new Date(Date.now() + 300_000).toISOString(), baseVersion: 0 },
      state?.version ?? null,
    );

    // Act
    const { recomputed } = await setCommitmentSharing(ctx, org.id, 'account');

    // Assess: the running import's version is untouched, so its end is no conflict.
    expect(recomputed).toEqual([]);
    expect((await ctx.repos.usage.usageState(org.id, 'gcp'))?.usageVersion).toBe(running);
    await ctx.repos.usage.finishImport(
      org.id,
      'gcp',
      sessionId,
      { kind: 'commitments', commitments: 0 },
      new Date().toISOString(),
    );
  });

  it('refuses an unknown org', async () => {
    // Act, Assess
    await expect(setCommitmentSharing(ctx, randomIds.uuid(), 'account')).rejects.toThrow(NotFoundError);
  });
});
