/**
 * Every plan offered fits the org's upfront cap (docs/plan-engine.md, The upfront cap) on
 * dynalite: setting the cap makes the plans stale, and the plans computed next each pay at most
 * the cap upfront, so whichever one the user applies is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../shared/app/bundled-catalog';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { setMaxUpfrontCost } from '../../../shared/app/purchase-operations';
import { randomIds } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: { now: () => new Date() }, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

describe('plans within the upfront cap (dynalite)', () => {
  it('computes every plan within a $1,000 cap once it is set, and applying High Savings is accepted', async () => {
    // Prepare: 4 m5.xlarge always on; without a cap some plan pays more than $1,000 upfront.
    const { orgId, user } = await orgWithRecommendedPlan(ctx);
    const upfrontOf = async (planId: string) =>
      ((await table.store.plans.planContent(orgId, planId))?.lineItems ?? []).reduce(
        (sum, item) => sum + (item.is_selected ? item.upfront_cost : 0),
        0,
      );
    const uncapped = await listDefaultPlans(ctx, user, orgId, 'aws');
    const uncappedUpfront = await Promise.all(uncapped.map((plan) => upfrontOf(plan.id)));
    expect(Math.max(...uncappedUpfront)).toBeGreaterThan(1_000);

    // Act: cap the org at $1,000, read the plans, apply High Savings.
    await setMaxUpfrontCost(ctx, orgId, 1_000);
    const capped = await listDefaultPlans(ctx, user, orgId, 'aws');
    const highSavings = capped.find((plan) => plan.name === 'High Savings');
    if (!highSavings) throw new Error('no High Savings plan');
    const purchaseQueue = { send: async () => undefined };
    const applied = await applyPlan(
      { ...ctx, catalog: bundledCatalog, purchaseQueue },
      user,
      orgId,
      highSavings.id,
    );

    // Assess: new plans, each within the cap and still saving; the apply scheduled the plan.
    expect(capped.map((plan) => plan.id)).not.toEqual(uncapped.map((plan) => plan.id));
    for (const plan of capped) {
      expect(await upfrontOf(plan.id)).toBeLessThanOrEqual(1_000);
      expect(plan.savings_hourly).toBeGreaterThan(0);
    }
    expect(applied.status).toBe('scheduled');
  });
});
