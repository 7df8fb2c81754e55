import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getRecommendedPlan,
  getRecommendedPurchasePlan,
  listDefaultPlans,
} from '../../../shared/app/commitment-plans';
import { importCommitments } from '../../../shared/app/import-commitments';
import type { ImportProgress } from '../../../shared/app/import-files';
import { openImport } from '../../../shared/app/import-sessions';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere, refreshPlans } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import {
  alwaysOn,
  commitmentHeader,
  fleet,
  gcpN2Standard8 as gcp,
  recordsOf,
  usageLines,
} from '../../support/usage-files';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const june = '2026-06-01T00:00:00Z';

/** Two n2-standard-8 instances always on, two more 60% of the hours: something to plan. */
const gcpFleet = [
  ...fleet(2, 'always', { ...gcp, unitsAt: alwaysOn }),
  ...fleet(2, 'daily', { ...gcp, unitsAt: (t) => (t % 5 < 3 ? 1 : 0) }),
];

/**
 * What an import of no commitments does to the plan inputs, without computing plans after it:
 * raises their version, so the stored GCP plans are stale. Answers the new version.
 */
async function makePlansStale(orgId: string): Promise<number> {
  const session = await openImport(ctx, orgId, 'gcp');
  await session.finish({ kind: 'commitments', commitments: 0 });
  return session.usageVersion;
}

async function orgWithUsage(resources = gcpFleet): Promise<{ orgId: string; principal: Principal }> {
  const org = await createOrg(ctx, `Planner ${randomIds.uuid()}`, null);
  await importUsage(ctx, { orgId: org.id, records: recordsOf(usageLines(june, 720, resources)) });
  const principal: Principal = {
    kind: 'user',
    orgId: org.id,
    userId: 'ada@example.com',
    role: 'admin',
    scopes: ['*'],
  };
  return { orgId: org.id, principal };
}

describe('keeping plans current', () => {
  it('computes the plans of the providers an import changed at its end, reporting it', async () => {
    // Prepare
    const org = await createOrg(ctx, `Importer ${randomIds.uuid()}`, null);
    const progress: ImportProgress[] = [];

    // Act
    const summary = await importUsage(ctx, {
      orgId: org.id,
      records: recordsOf(usageLines(june, 720, gcpFleet)),
      onProgress: (step) => progress.push(step),
    });

    // Assess
    expect(progress.at(-1)).toEqual({ stage: 'planning', provider: 'gcp' });
    const planSet = await ctx.repos.plans.planSet(org.id, 'gcp');
    expect(planSet?.computed?.usageVersion).toBe(summary.providers[0]?.usageVersion);
    expect(planSet?.computed?.planIds).toHaveLength(3);
    expect(planSet?.calculation).toBeNull();
    expect(await refreshPlans(ctx, org.id, 'gcp')).toMatchObject({ outcome: 'current' });
  });

  it('serves the stored plans while they are current, with ids that do not change', async () => {
    // Prepare
    const { orgId, principal } = await orgWithUsage();

    // Act
    const first = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    const second = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(first.map((plan) => plan.name)).toEqual(['Recommended', 'Balanced', 'High Savings']);
    expect(second).toEqual(first);
    expect(first.every((plan) => !plan.is_calculating && plan.status === 'new')).toBe(true);
  });

  it('computes stale plans again when asked for them, and deletes the plans they replace', async () => {
    // Prepare
    const { orgId, principal } = await orgWithUsage();
    const before = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    // An import of commitments raises the version of the inputs: the plans are stale. Importing
    // through the repositories, not the use case, leaves them so.
    const version = await makePlansStale(orgId);

    // Act
    const after = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(after.map((plan) => plan.name)).toEqual(['Recommended', 'Balanced', 'High Savings']);
    expect(after.some((plan) => before.some((old) => old.id === plan.id))).toBe(false);
    expect((await ctx.repos.plans.planSet(orgId, 'gcp'))?.computed?.usageVersion).toBe(version);
    const [oldPlan] = before;
    expect(await ctx.repos.plans.planContent(orgId, oldPlan?.id as string)).toBeNull();
    expect(
      await ctx.repos.plans.getPlans(
        orgId,
        'gcp',
        before.map((plan) => plan.id),
      ),
    ).toEqual([]);
  });

  it('serves the stored plans as calculating while another process computes newer ones', async () => {
    // Prepare
    const { orgId, principal } = await orgWithUsage();
    const stored = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    const version = await makePlansStale(orgId);
    const claimed = await ctx.repos.computedPlans.claimCalculation(
      orgId,
      'gcp',
      { claimId: randomIds.uuid(), usageVersion: version, startedAt: new Date().toISOString() },
      new Date(Date.now() - 60_000).toISOString(),
    );

    // Act
    const served = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(claimed).toBe(true);
    expect(served.map((plan) => plan.id)).toEqual(stored.map((plan) => plan.id));
    expect(served.every((plan) => plan.is_calculating)).toBe(true);
    expect((await ctx.repos.plans.planSet(orgId, 'gcp'))?.computed?.usageVersion).not.toBe(version);
  });

  it('takes over a computation whose claim expired', async () => {
    // Prepare
    const { orgId, principal } = await orgWithUsage();
    await listDefaultPlans(ctx, principal, orgId, 'gcp');
    const version = await makePlansStale(orgId);
    const threeMinutesAgo = new Date(Date.now() - 180_000).toISOString();
    await ctx.repos.computedPlans.claimCalculation(
      orgId,
      'gcp',
      { claimId: randomIds.uuid(), usageVersion: version, startedAt: threeMinutesAgo },
      threeMinutesAgo,
    );

    // Act
    const served = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(served.every((plan) => !plan.is_calculating)).toBe(true);
    expect(await ctx.repos.plans.planSet(orgId, 'gcp')).toMatchObject({
      computed: { usageVersion: version },
      calculation: null,
    });
  });

  it('answers no plans, after waiting its bound, while another process computes the first ones', async () => {
    // Prepare
    const org = await createOrg(ctx, `Waiting ${randomIds.uuid()}`, null);
    const principal: Principal = { kind: 'partner', orgId: org.id, scopes: ['*'] };
    await ctx.repos.computedPlans.claimCalculation(
      org.id,
      'aws',
      { claimId: randomIds.uuid(), usageVersion: 0, startedAt: new Date().toISOString() },
      new Date(Date.now() - 60_000).toISOString(),
    );

    // Act
    const plans = await listDefaultPlans(ctx, principal, org.id, 'aws', { waitForFirstPlansMs: 0 });

    // Assess
    expect(plans).toEqual([]);
  });

  it('computes nothing while an import runs, serving the stored plans as calculating', async () => {
    // Prepare
    const { orgId, principal } = await orgWithUsage();
    const stored = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    await openImport(ctx, orgId, 'gcp');

    // Act
    const refresh = await refreshPlans(ctx, orgId, 'gcp');
    const served = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(refresh.outcome).toBe('importing');
    expect(served.map((plan) => plan.id)).toEqual(stored.map((plan) => plan.id));
    expect(served.every((plan) => plan.is_calculating)).toBe(true);
  });

  it('computes three empty plans and no recommended one for a provider without usage', async () => {
    // Prepare
    const org = await createOrg(ctx, `Empty ${randomIds.uuid()}`, null);
    const principal: Principal = { kind: 'partner', orgId: org.id, scopes: ['*'] };

    // Act
    const plans = await listDefaultPlans(ctx, principal, org.id, 'azure');
    const recommended = await getRecommendedPlan(ctx, principal, org.id, 'azure');
    const purchasePlan = await getRecommendedPurchasePlan(ctx, principal, org.id, 'azure');

    // Assess
    expect(plans.map((plan) => [plan.name, plan.savings_hourly, plan.covered_ondemand_cost_hourly])).toEqual([
      ['Recommended', 0, 0],
      ['Balanced', 0, 0],
      ['High Savings', 0, 0],
    ]);
    expect(recommended).toBeNull();
    expect(purchasePlan).toBeNull();
  });

  it('recomputes after a commitment import, whose commitments the new plans take into account', async () => {
    // Prepare
    const { orgId, principal } = await orgWithUsage();
    const [before] = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    const commitment =
      'gcp,acme-prod,us-central1,standard_ris,n2-standard-8,2,0,0,0.349624,2026-01-01,2029-01-01,';

    // Act
    await importCommitments(ctx, { orgId, records: recordsOf([commitmentHeader, commitment]) });
    const [after] = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(before?.before_reserved_cost_hourly).toBe(0);
    // Two reserved instances, always used by the two always-on ones, at 0.349624 an hour in all.
    expect(after?.before_reserved_cost_hourly).toBeCloseTo(0.349624, 9);
    expect(after?.id).not.toBe(before?.id);
  });

  it('answers the recommended plan as a v2 purchase plan with the same id and figures', async () => {
    // Prepare
    const { orgId, principal } = await orgWithUsage();

    // Act
    const plan = await getRecommendedPlan(ctx, principal, orgId, 'gcp');
    const purchasePlan = await getRecommendedPurchasePlan(ctx, principal, orgId, 'gcp');
    const other = await getRecommendedPurchasePlan(ctx, principal, orgId, 'kubernetes');

    // Assess
    expect(plan?.name).toBe('Recommended');
    expect(purchasePlan).toMatchObject({
      id: plan?.id,
      savings: plan?.savings_hourly,
      status: 'new',
      is_calculating: false,
      segment: { provider: 'gcp', is_default: true },
    });
    expect(purchasePlan?.resource_ids).toEqual(expect.arrayContaining(['always-1', 'daily-2']));
    expect(other).toBeNull();
  });
});
