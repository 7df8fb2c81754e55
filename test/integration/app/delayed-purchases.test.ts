/**
 * Delayed starts (docs/purchases.md, Delayed starts) on dynalite: a renewal's purchase record
 * carries its start. Where the provider queues purchases (EC2 regional reservations, Savings Plans)
 * the processor buys at once, asking the provider to start it then; elsewhere (RDS) it leaves the
 * record queued and unclaimed until the start, and the sweep sends it again only once it is due.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../shared/app/bundled-catalog';
import { applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { processPurchase } from '../../../shared/app/purchase-processing';
import { sweepPurchases } from '../../../shared/app/purchase-sweep';
import { queuesPurchase } from '../../../shared/cloud/marketplace/marketplace';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import type { Offer } from '../../../shared/domain/engine';
import { effectiveHourly } from '../../../shared/domain/purchases/purchase-orders';
import { purchaseRecordId } from '../../../shared/domain/purchases/purchase-record';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds } from '../../../shared/runtime/app-context';
import { purchaseKey } from '../../../shared/store/keys';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

const DAY_MS = 86_400_000;

let table: TestTable;
let nowMs = Date.now();
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: { now: () => new Date(nowMs) }, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

/**
 * An applied recommended plan whose records are made to buy `offer` (the plan's own lines are
 * leases, which no provider queues), each starting `startsAt` as a renewal's would; its messages.
 */
async function appliedRenewal(startsAt: string, offer: Offer) {
  const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
  const sent: PurchaseMessage[] = [];
  const purchaseQueue = { send: async (m: readonly PurchaseMessage[]) => void sent.push(...m) };
  await applyPlan({ ...ctx, catalog: bundledCatalog, purchaseQueue }, user, orgId, planId);
  for (const message of sent) {
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: purchaseKey(planId, message.lineItemId),
        UpdateExpression:
          'SET startsAt = :s, offerId = :o, contractType = :c, limitPrice = :l REMOVE instanceType',
        ExpressionAttributeValues: {
          ':s': startsAt,
          ':o': offer.id,
          ':c': offer.contractType,
          ':l': { upfront: offer.upfront, hourly: effectiveHourly(offer) },
        },
      }),
    );
  }
  return { orgId, planId, sent };
}

describe('delayed starts (dynalite)', () => {
  it('buys a savings plan renewal at once, started by the provider at its start; the commitment owned starts then', async () => {
    // Prepare: the records buy a Compute Savings Plan (queueable) starting in 10 days.
    nowMs = Date.now();
    const startsAt = new Date(nowMs + 10 * DAY_MS).toISOString();
    const plan = (await bundledCatalog())
      .offers('aws')
      .find((offer) => offer.contractType === 'compute_plans');
    if (!plan || !queuesPurchase(plan)) throw new Error('the catalog has no queueable savings plan');
    const { orgId, planId, sent } = await appliedRenewal(startsAt, plan);
    const marketplace = new SimulatedMarketplace();

    // Act: every message twice.
    for (const message of [...sent, ...sent]) {
      await processPurchase({ ...ctx, catalog: bundledCatalog, marketplace }, message);
    }

    // Assess: bought once each, now, queued by the provider to start at startsAt, owned from then.
    const records = await table.store.purchases.listByPlan(planId);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records)
      expect(record).toMatchObject({ status: 'completed', startsAt, attempts: 1 });
    expect(marketplace.purchases().map((each) => each.request.startsAt)).toEqual(records.map(() => startsAt));
    expect(marketplace.purchases().map((each) => each.result.startsAt)).toEqual(records.map(() => startsAt));
    const owned = await table.store.commitments.listCommitments(orgId);
    const bought = owned.filter((each) => records.some((record) => record.id === each.id));
    expect(bought.map((each) => each.start)).toEqual(records.map(() => startsAt));
  });

  it('leaves an RDS renewal queued and unclaimed until its start; the sweep sends it again only once due', async () => {
    // Prepare: the records are turned into an RDS reservation (no queued purchase) starting in 2 hours.
    nowMs = Date.now();
    const startsAt = new Date(nowMs + 2 * 3_600_000).toISOString();
    const rds = (await bundledCatalog()).offers('aws').find((offer) => offer.contractType === 'db_ris');
    if (!rds) throw new Error('the catalog has no RDS offer');
    const { planId, sent } = await appliedRenewal(startsAt, rds);
    const marketplace = new SimulatedMarketplace();
    const resent: PurchaseMessage[] = [];
    const sweeping = {
      ...ctx,
      purchaseQueue: { send: async (m: readonly PurchaseMessage[]) => void resent.push(...m) },
    };

    // Act: every message (twice) before the start, a sweep an hour on, a sweep past the start.
    const outcomes = [];
    for (const message of [...sent, ...sent]) {
      outcomes.push(await processPurchase({ ...ctx, catalog: bundledCatalog, marketplace }, message));
    }
    nowMs += 3_600_000;
    const early = await sweepPurchases(sweeping, 0);
    nowMs += 2 * 3_600_000;
    const due = await sweepPurchases(sweeping, 0);

    // Assess: nothing claimed or bought before the start; resent once due, one message per record.
    expect(outcomes.map((each) => each.outcome)).toEqual(outcomes.map(() => 'waiting'));
    const records = await table.store.purchases.listByPlan(planId);
    for (const record of records) {
      expect(record).toMatchObject({ status: 'queued', attempts: 0, claim: null, startsAt });
    }
    expect(marketplace.purchases()).toEqual([]);
    expect(early.resent).toBe(0);
    expect(due.resent).toBe(records.length);
    expect(resent.map((m) => purchaseRecordId(m.planId, m.lineItemId)).sort()).toEqual(
      records.map((record) => record.id).sort(),
    );
  });
});
