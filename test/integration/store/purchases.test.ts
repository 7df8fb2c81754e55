import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PurchaseRepository } from '../../../shared/app/ports';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { MemoryPurchaseRepository } from '../../support/memory-purchase-store';
import { aPurchaseRecord } from '../../support/purchase-records';

let table: TestTable;

beforeAll(async () => {
  table = await startTestTable();
});

afterAll(async () => {
  await table.close();
});

const t = (minute: number) => new Date(Date.UTC(2026, 10, 24, 10, minute)).toISOString();
const claimAt = (attemptId: string, minute: number, minutes = 2) => ({
  attemptId,
  claimedAt: t(minute),
  expiresAt: t(minute + minutes),
});
const bought = {
  status: 'completed',
  providerIds: ['ri-1'],
  upfrontCost: 0,
  recurringCost: 0.12,
  providerQuantity: 2,
} as const;

// The same contract, against the DynamoDB repository on dynalite and against the in-memory one
// the exactly-once model test runs on: the model is only as good as this agreement.
describe.each([
  ['on DynamoDB (dynalite)', (): PurchaseRepository => table.store.purchases],
  ['in memory', (): PurchaseRepository => new MemoryPurchaseRepository()],
])('purchase records %s', (_name, repository) => {
  it('creates a record once: a second create answers the stored one, untouched', async () => {
    // Prepare
    const purchases = repository();
    const record = aPurchaseRecord();
    // Act
    const [first] = await purchases.createRecords([record]);
    const [second] = await purchases.createRecords([{ ...record, quantity: 99 }]);
    // Assess
    expect(first).toEqual(record);
    expect(second?.quantity).toBe(2);
    expect(await purchases.get(record.planId, record.lineItemId)).toEqual(record);
  });

  it('lets one attempt claim a queued record, and another only after that claim expired', async () => {
    // Prepare
    const purchases = repository();
    const [record] = await purchases.createRecords([aPurchaseRecord()]);
    if (!record) throw new Error('not created');
    // Act
    const first = await purchases.claim(record, claimAt('a1', 0));
    const whileHeld = await purchases.claim(record, claimAt('a2', 1));
    const afterExpiry = await purchases.claim(record, claimAt('a3', 3));
    // Assess
    expect(first).toMatchObject({ status: 'purchasing', attempts: 1, firstClaimedAt: t(0) });
    expect(first?.claim?.attemptId).toBe('a1');
    expect(whileHeld).toBeNull();
    expect(afterExpiry).toMatchObject({ status: 'purchasing', attempts: 2, firstClaimedAt: t(0) });
    expect(afterExpiry?.claim?.attemptId).toBe('a3');
  });

  it("records the provider's purchase from any attempt, once, and never lets it be claimed again", async () => {
    // Prepare
    const purchases = repository();
    const [record] = await purchases.createRecords([aPurchaseRecord()]);
    if (!record) throw new Error('not created');
    await purchases.claim(record, claimAt('a1', 0));
    await purchases.claim(record, claimAt('a2', 5));
    // Act: the first, expired attempt comes back with the provider's answer
    const completed = await purchases.finish(record, 'a1', bought, t(6));
    const again = await purchases.finish(record, 'a2', bought, t(7));
    const claimed = await purchases.claim(record, claimAt('a3', 60));
    // Assess
    expect(completed).toMatchObject({
      status: 'completed',
      providerIds: ['ri-1'],
      completedAt: t(6),
      claim: null,
    });
    expect(again).toBeNull();
    expect(claimed).toBeNull();
    expect((await purchases.get(record.planId, record.lineItemId))?.status).toBe('completed');
  });

  it('records a refusal only from the attempt holding the claim', async () => {
    // Prepare
    const purchases = repository();
    const [record] = await purchases.createRecords([aPurchaseRecord()]);
    if (!record) throw new Error('not created');
    await purchases.claim(record, claimAt('a1', 0));
    const refusal = { status: 'failed', reason: 'no capacity', code: 'InsufficientCapacity' } as const;
    // Act
    const byOther = await purchases.finish(record, 'a9', refusal, t(1));
    const byHolder = await purchases.finish(record, 'a1', refusal, t(1));
    // Assess
    expect(byOther).toBeNull();
    expect(byHolder).toMatchObject({
      status: 'failed',
      error: 'no capacity',
      errorCode: 'InsufficientCapacity',
    });
  });

  it('refuses a queued record only if no attempt claimed it since it was read', async () => {
    // Prepare
    const purchases = repository();
    const [record] = await purchases.createRecords([aPurchaseRecord()]);
    if (!record) throw new Error('not created');
    await purchases.claim(record, claimAt('a1', 0));
    // Act
    const refusedWhilePurchasing = await purchases.refuse(
      record,
      'over the cap',
      'max_upfront_cost_exceeded',
      t(1),
    );
    // Assess
    expect(refusedWhilePurchasing).toBeNull();
    expect((await purchases.get(record.planId, record.lineItemId))?.status).toBe('purchasing');
  });

  it('puts only a failed record back in the queue, with a new limit price when given', async () => {
    // Prepare
    const purchases = repository();
    const [record] = await purchases.createRecords([aPurchaseRecord()]);
    if (!record) throw new Error('not created');
    // Act
    const whileQueued = await purchases.requeue(record, t(1));
    await purchases.refuse(record, 'price moved', 'price_changed', t(2));
    const requeued = await purchases.requeue(record, t(3), { upfront: 1, hourly: 0.07 });
    // Assess
    expect(whileQueued).toBeNull();
    expect(requeued).toMatchObject({
      status: 'queued',
      updatedAt: t(3),
      limitPrice: { upfront: 1, hourly: 0.07 },
    });
  });

  it('completes by hand only a record waiting for an operator, with what the operator bought', async () => {
    // Prepare
    const purchases = repository();
    const byHand = { reference: 'lease-42', providerQuantity: 2, upfrontCost: 30, recurringCost: 0.5 };
    const [record] = await purchases.createRecords([aPurchaseRecord()]);
    if (!record) throw new Error('not created');
    // Act
    const whileQueued = await purchases.completeByHand(record, byHand, t(1));
    await purchases.claim(record, claimAt('a1', 1));
    await purchases.finish(
      record,
      'a1',
      { status: 'manual', reason: 'by hand', code: 'manual_fulfilment' },
      t(2),
    );
    const completed = await purchases.completeByHand(record, byHand, t(3));
    // Assess
    expect(whileQueued).toBeNull();
    expect(completed).toMatchObject({
      status: 'completed',
      reference: 'lease-42',
      providerIds: ['lease-42'],
      providerQuantity: 2,
      upfrontCost: 30,
      recurringCost: 0.5,
      completedAt: t(3),
    });
  });

  it('lists a plan in line item order and an org oldest first', async () => {
    // Prepare
    const purchases = repository();
    const orgId = `org-${Math.random()}`;
    const planId = crypto.randomUUID();
    const b = aPurchaseRecord({ orgId, planId, lineItemId: 'b-line', createdAt: t(1) });
    const a = aPurchaseRecord({ orgId, planId, lineItemId: 'a-line', createdAt: t(2) });
    const other = aPurchaseRecord({ orgId, createdAt: t(0) });
    // Act
    await purchases.createRecords([b, a, other]);
    // Assess
    expect((await purchases.listByPlan(planId)).map((r) => r.lineItemId)).toEqual(['a-line', 'b-line']);
    expect((await purchases.listByOrg(orgId)).map((r) => r.id)).toEqual([other.id, b.id, a.id]);
  });

  it('keeps one marker per purchasing plan, with the time it was first marked', async () => {
    // Prepare
    const purchases = repository();
    const planId = crypto.randomUUID();
    // Act
    await purchases.markPurchasing({ planId, orgId: 'org-1', provider: 'aws', since: t(0) });
    await purchases.markPurchasing({ planId, orgId: 'org-1', provider: 'aws', since: t(5) });
    const marked = (await purchases.purchasingPlans()).filter((plan) => plan.planId === planId);
    await purchases.unmarkPurchasing(planId);
    // Assess
    expect(marked).toEqual([{ planId, orgId: 'org-1', provider: 'aws', since: t(0) }]);
    expect((await purchases.purchasingPlans()).some((plan) => plan.planId === planId)).toBe(false);
  });
});
