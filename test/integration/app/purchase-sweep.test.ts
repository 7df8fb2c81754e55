import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../shared/app/bundled-catalog';
import { applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { processPurchase } from '../../../shared/app/purchase-processing';
import { sweepPurchases } from '../../../shared/app/purchase-sweep';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { deduplicationId, type PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

describe('the purchase sweep (dynalite)', () => {
  it('sends again the purchases whose messages were lost, under new deduplication ids, then forgets the finished plan', async () => {
    // Prepare: an apply whose messages the queue took and lost.
    const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
    const lost: PurchaseMessage[] = [];
    const swept: PurchaseMessage[] = [];
    await applyPlan(
      { ...ctx, catalog: bundledCatalog, purchaseQueue: { send: async (m) => void lost.push(...m) } },
      user,
      orgId,
      planId,
    );
    const sweeping = {
      ...ctx,
      purchaseQueue: { send: async (m: readonly PurchaseMessage[]) => void swept.push(...m) },
    };

    // Act
    const first = await sweepPurchases(sweeping, 0);
    for (const message of swept) {
      await processPurchase(
        { ...ctx, catalog: bundledCatalog, marketplace: new SimulatedMarketplace() },
        message,
      );
    }
    const second = await sweepPurchases(sweeping, 0);

    // Assess
    const records = await table.store.purchases.listByPlan(planId);
    expect(first.resent).toBe(records.length);
    expect(swept.map((m) => m.lineItemId).sort()).toEqual(lost.map((m) => m.lineItemId).sort());
    for (const message of swept) {
      expect(lost.map(deduplicationId)).not.toContain(deduplicationId(message));
    }
    expect(records.every((record) => record.status === 'completed')).toBe(true);
    expect(second.resent).toBe(0);
    expect((await table.store.purchases.purchasingPlans()).some((plan) => plan.planId === planId)).toBe(
      false,
    );
  });

  it('leaves a purchase alone while it is queued for less than the quiet time', async () => {
    // Prepare
    const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
    const sent: PurchaseMessage[] = [];
    const queue = { send: async (m: readonly PurchaseMessage[]) => void sent.push(...m) };
    await applyPlan({ ...ctx, catalog: bundledCatalog, purchaseQueue: queue }, user, orgId, planId);
    sent.length = 0;

    // Act
    await sweepPurchases({ ...ctx, purchaseQueue: queue }, 3600);

    // Assess
    expect(sent.filter((m) => m.planId === planId)).toEqual([]);
  });
});
