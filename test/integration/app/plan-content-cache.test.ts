import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStorageCalls, type StorageCallCounter } from '../../../local/store/storage-calls';
import type { AppContext } from '../../../shared/app/ports';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { computePlans, type ProviderPlans } from '../../../shared/domain/engine';
import { createAppContext } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { m5LargeStream } from '../../support/usage-streams';

let table: TestTable;
let ctx: AppContext;
let calls: StorageCallCounter;

beforeAll(async () => {
  table = await startTestTable();
  calls = countStorageCalls(table);
  ctx = createAppContext(table);
});

afterAll(async () => {
  await table.close();
});

const window = { start: '2026-06-01T00:00:00Z', hours: 720 };

/** Stores the plans of one always-on m5.large for a new org. */
async function storedPlans(): Promise<{ orgId: string; plans: ProviderPlans }> {
  const orgId = randomUUID();
  const planSeed = `${orgId}/aws/1`;
  const plans = computePlans({
    orgId,
    provider: 'aws',
    window,
    streams: [m5LargeStream('i-1', new Float64Array(window.hours).fill(1))],
    commitments: [],
    offers: loadCatalog().offers('aws'),
    planSeed,
    createdAt: '2026-07-01T00:00:00.000Z',
  });
  await table.store.computedPlans.storePlans(
    orgId,
    { usageVersion: 1, planSeed, window, sharing: 'organization', renewalHorizonDays: 30 },
    plans,
  );
  return { orgId, plans };
}

/** The storage calls `act` sends. */
async function callsOf(act: () => Promise<unknown>): Promise<number> {
  const before = calls.total;
  await act();
  return calls.total - before;
}

describe('plan content cache', () => {
  it('reads a plan’s content from storage once, then from memory', async () => {
    // Prepare
    const { orgId, plans } = await storedPlans();
    const planId = plans.recommendedPlanId as string;

    // Act
    const cold = await callsOf(() => ctx.repos.plans.planContent(orgId, planId));
    const warm = await callsOf(() => ctx.repos.plans.planContent(orgId, planId));

    // Assess: the plan item (one batch of its three possible keys) and its line items.
    expect([cold, warm]).toEqual([2, 0]);
    expect((await ctx.repos.plans.planContent(orgId, planId))?.lineItems).toEqual(plans.plans[0]?.lineItems);
  });

  it('answers a cached plan to its own org only', async () => {
    // Prepare
    const { orgId, plans } = await storedPlans();
    const planId = plans.recommendedPlanId as string;
    await ctx.repos.plans.planContent(orgId, planId);

    // Act
    const elsewhere = await ctx.repos.plans.planContent(randomUUID(), planId);

    // Assess
    expect(elsewhere).toBeNull();
  });

  it('keeps a plan’s match-to-line-item map and its purchase plan, but reads plans (their status) every time', async () => {
    // Prepare
    const { orgId, plans } = await storedPlans();
    const planId = plans.recommendedPlanId as string;

    // Act
    const owners = [
      await callsOf(() => ctx.repos.plans.resourceMatchLineItems(planId)),
      await callsOf(() => ctx.repos.plans.resourceMatchLineItems(planId)),
    ];
    const purchasePlans = [
      await callsOf(() => ctx.repos.plans.purchasePlan(planId)),
      await callsOf(() => ctx.repos.plans.purchasePlan(planId)),
    ];
    const planReads = [
      await callsOf(() => ctx.repos.plans.getPlans(orgId, 'aws', [planId])),
      await callsOf(() => ctx.repos.plans.getPlans(orgId, 'aws', [planId])),
    ];

    // Assess
    expect({ owners, purchasePlans, planReads }).toEqual({
      owners: [1, 0],
      purchasePlans: [1, 0],
      planReads: [1, 1],
    });
    expect(await ctx.repos.plans.purchasePlan(planId)).toEqual(plans.purchasePlan);
  });
});
