import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRecommendedPlan } from '../../../shared/app/commitment-plans';
import { type ApplyContext, applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import {
  type ProcessorContext,
  PurchaseNotFinished,
  processPurchase,
} from '../../../shared/app/purchase-processing';
import { AmbiguousEarlierPurchase } from '../../../shared/cloud/marketplace/marketplace';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { ConflictError } from '../../../shared/domain/errors';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

let table: TestTable;
let base: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  base = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const catalog = async () => loadCatalog();

/** A queue that keeps what it is sent, for the test to deliver. */
function keptQueue() {
  const sent: PurchaseMessage[] = [];
  return {
    sent,
    queue: { send: async (messages: readonly PurchaseMessage[]) => void sent.push(...messages) },
  };
}

const orgWithPlan = () => orgWithRecommendedPlan(base);

describe('applying a plan and processing its purchases (dynalite)', () => {
  it('buys each selected line once, records it, owns the commitments and recomputes the plans around them', async () => {
    // Prepare
    const { orgId, planId, user } = await orgWithPlan();
    const { sent, queue } = keptQueue();
    const marketplace = new SimulatedMarketplace();
    const applying: ApplyContext = { ...base, purchaseQueue: queue, catalog };
    const processing: ProcessorContext = { ...base, marketplace, catalog };
    // Act
    const applied = await applyPlan(applying, user, orgId, planId);
    for (const message of [...sent, ...sent]) await processPurchase(processing, message);
    // Assess
    expect(applied.status).toBe('scheduled');
    const records = await table.store.purchases.listByPlan(planId);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.status === 'completed' && r.attempts === 1)).toBe(true);
    expect(marketplace.purchases()).toHaveLength(records.length);
    const [stored] = await table.store.plans.getPlans(orgId, 'aws', [planId]);
    expect(stored?.plan.status).toBe('completed');
    expect(stored?.application?.appliedBy).toBe('ada@example.com');
    const owned = await table.store.commitments.listCommitments(orgId, 'aws');
    expect(owned.map((c) => c.id).sort()).toEqual(records.map((r) => r.id).sort());
    const next = await getRecommendedPlan(base, user, orgId, 'aws');
    expect(next?.id).not.toBe(planId);
    await expect(applyPlan(applying, user, orgId, planId)).rejects.toThrow(ConflictError);
  });

  it('lets one of two concurrent applies schedule the plan and refuses the other', async () => {
    // Prepare
    const { orgId, planId, user } = await orgWithPlan();
    const { sent, queue } = keptQueue();
    const applying: ApplyContext = { ...base, purchaseQueue: queue, catalog };
    // Act
    const results = await Promise.allSettled([
      applyPlan(applying, user, orgId, planId),
      applyPlan(applying, user, orgId, planId),
    ]);
    // Assess
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(ConflictError);
    const records = await table.store.purchases.listByPlan(planId);
    expect(new Set(sent.map((m) => m.lineItemId))).toEqual(new Set(records.map((r) => r.lineItemId)));
  });

  it('fails the line the provider refuses, sends the plan to review, and buys it on applying again', async () => {
    // Prepare
    const { orgId, planId, user } = await orgWithPlan();
    const { sent, queue } = keptQueue();
    const marketplace = new SimulatedMarketplace();
    const applying: ApplyContext = { ...base, purchaseQueue: queue, catalog };
    const processing: ProcessorContext = { ...base, marketplace, catalog };
    await applyPlan(applying, user, orgId, planId);
    const [first] = await table.store.purchases.listByPlan(planId);
    if (!first) throw new Error('no purchase');
    marketplace.failOffer(first.offerId, 'no capacity');
    // Act
    for (const message of sent.splice(0)) await processPurchase(processing, message);
    const reviewed = (await table.store.plans.getPlans(orgId, 'aws', [planId]))[0]?.plan.status;
    marketplace.stopFailing(first.offerId);
    await applyPlan(applying, user, orgId, planId);
    for (const message of sent.splice(0)) await processPurchase(processing, message);
    // Assess
    expect(reviewed).toBe('needs_review');
    const retried = await table.store.purchases.get(planId, first.lineItemId);
    expect(retried).toMatchObject({ status: 'completed', clientToken: first.clientToken, attempts: 2 });
    expect((await table.store.plans.getPlans(orgId, 'aws', [planId]))[0]?.plan.status).toBe('completed');
  });

  it('keeps a purchase the provider cannot tell apart from another in purchasing, for the message to come again', async () => {
    // Prepare
    const { orgId, planId, user } = await orgWithPlan();
    const { sent, queue } = keptQueue();
    await applyPlan({ ...base, purchaseQueue: queue, catalog }, user, orgId, planId);
    const undecided: ProcessorContext = {
      ...base,
      catalog,
      marketplace: {
        purchase: async () => {
          throw new AmbiguousEarlierPurchase('two untagged reservations of the order', ['ri-1', 'ri-2']);
        },
      },
    };
    const message = sent[0] as PurchaseMessage;
    // Act
    const outcome = processPurchase(undecided, message);
    // Assess
    await expect(outcome).rejects.toThrow(PurchaseNotFinished);
    const record = await table.store.purchases.get(planId, message.lineItemId);
    expect(record?.status).toBe('purchasing');
  });
});
