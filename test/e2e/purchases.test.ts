import { beforeAll, describe, expect, it } from 'vitest';
import { importUsage } from '../../shared/app/import-usage';
import { createOrg, createUserKey } from '../../shared/app/operator';
import { planPurchaseCalls } from '../support/plan-purchases';
import { settledPlan, useSeededApi } from '../support/seeded-api';
import { settledPlanOf } from '../support/settled-plan';
import { tableChanges } from '../support/table-changes';
import { alwaysOn, fleet, recordsOf, usageLines } from '../support/usage-files';

/**
 * Applying plans (#8) and purchasing them for a user (#13) over HTTP, against the local API with
 * its in-process purchase queue and simulated marketplace (docs/purchases.md): what is bought and
 * what the reads show afterwards. The refusals, which leave the store as it was, are
 * purchase-refusals.test.ts.
 *
 * Reads after an apply poll while the processor runs, as a client would: purchases must complete
 * while other requests are served (a batch once lost its records to a concurrent request's
 * invocation scope, leaving purchases queued).
 */

const seeded = useSeededApi();
const { call } = seeded;
const { recommendedPlan, apply, purchaseFor } = planPurchaseCalls(seeded);

async function selectedLineItems(planId: string) {
  const response = await call(`${seeded.plansPath}/${planId}/line-items?page_size=100`, {
    apiKey: seeded.adminKey,
  });
  expect(response.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
  return (response.body as any[]).filter(
    (item) => item.is_selected && (item.selected_quantity > 0 || item.selected_commitment > 0),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON
async function purchases(planId: string): Promise<any[]> {
  const response = await call(`${seeded.plansPath}/${planId}/purchases?page_size=100`, {
    apiKey: seeded.adminKey,
  });
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * A new org with a month of two always-on families (4 m5.xlarge, 4 r5.xlarge) ending at the last
 * hour, and an admin key: its plans have a line per family to buy.
 */
async function orgOfTwoFamilies(name: string): Promise<{ plans: string; key: { apiKey: string } }> {
  const ctx = seeded.server.api.runtime.ctx;
  const org = await createOrg(ctx, `${name} ${ctx.ids.uuid()}`, null);
  const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 720 * 3_600_000).toISOString();
  const onAws = {
    provider: 'aws' as const,
    accountId: '111122223333',
    region: 'us-east-1',
    service: 'AmazonEC2',
  };
  const always = { operatingSystem: 'Linux', unitsAt: alwaysOn };
  await importUsage(ctx, {
    orgId: org.id,
    records: recordsOf(
      usageLines(start, 720, [
        ...fleet(4, 'm5', { ...onAws, ...always, instanceType: 'm5.xlarge' }),
        ...fleet(4, 'r5', { ...onAws, ...always, instanceType: 'r5.xlarge' }),
      ]),
    ),
  });
  const { key } = await createUserKey(ctx, org.id, `buyer@${org.id}.example`, 'admin');
  return { plans: `/v1/org/${org.id}/commitment-plans`, key };
}

/** The marketplace purchases of one plan, counted by client token. */
function marketplacePurchasesOf(planId: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const purchase of seeded.server.api.purchasing.marketplace.purchases()) {
    if (purchase.request.planId !== planId) continue;
    counts.set(purchase.clientToken, (counts.get(purchase.clientToken) ?? 0) + 1);
  }
  return counts;
}

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The commitment the chart shows over the next 30 days, summed. */
async function futureCommitment(): Promise<number> {
  const response = await call(
    `/v1/org/${seeded.orgId}/commitments/chart?provider=aws&start_date=${isoDay(0)}&end_date=${isoDay(30)}`,
    { apiKey: seeded.adminKey },
  );
  expect(response.status).toBe(200);
  return (
    response.body.data as { remaining_commit: number; locked_commit: number; unlocked_commit: number }[]
  )
    .map((point) => point.locked_commit + point.unlocked_commit)
    .reduce((total, each) => total + each, 0);
}

describe('applying the recommended AWS plan', () => {
  let planId: string;
  let selected: { id: string }[];
  let commitmentBefore: number;

  beforeAll(async () => {
    planId = (await recommendedPlan('aws')).id;
    selected = await selectedLineItems(planId);
    commitmentBefore = await futureCommitment();
  });

  it('schedules the plan and buys each selected line item once', async () => {
    // Act
    const applied = await apply(planId);
    // Assess
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ id: planId, status: 'scheduled' });
    expect((await settledPlan(seeded, planId, () => purchases(planId))).status).toBe('completed');
    const records = await purchases(planId);
    expect(records.map((record) => record.line_item_id).sort()).toEqual(
      selected.map((item) => item.id).sort(),
    );
    for (const record of records) {
      expect(record).toMatchObject({ status: 'completed', attempts: 1, plan_id: planId, error: null });
      expect(record.provider_ids.length).toBeGreaterThan(0);
    }
    const bought = marketplacePurchasesOf(planId);
    expect(bought.size).toBe(records.length);
    expect([...bought.values()].every((count) => count === 1)).toBe(true);
  });

  it('shows the bought commitments on the chart from now on', async () => {
    expect(await futureCommitment()).toBeGreaterThan(commitmentBefore);
  });

  it('recommends nothing more once what it recommended is owned (nothing is bought twice)', async () => {
    const next = await call(`${seeded.plansPath}/recommended?provider=aws`, { apiKey: seeded.adminKey });
    expect(next.status).toBe(204);
  });

  it('answers 409 to applying it again, buying nothing more', async () => {
    const before = await seeded.server.snapshot();
    const again = await apply(planId);
    expect(again.status).toBe(409);
    expect(tableChanges(before, await seeded.server.snapshot())).toEqual([]);
    expect(marketplacePurchasesOf(planId).size).toBe(selected.length);
  });
});

describe('purchasing the recommended Azure plan for a new user (#13)', () => {
  it('makes the user a member and answers the plan with one submitted purchase action per line item', async () => {
    // Prepare
    const v2 = await call(`/v2/org/${seeded.orgId}/partners/purchase-plans-v2/recommended?provider=azure`, {
      apiKey: seeded.partnerKey,
    });
    expect(v2.status).toBe(200);
    const planId: string = v2.body.id;
    const selected = await selectedLineItems(planId);
    const email = 'buyer@demo-customer.example';

    // Act
    const response = await purchaseFor(planId, { email });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.id).toBe(planId);
    expect(['scheduled', 'in_progress', 'completed']).toContain(response.body.status);
    expect(response.body.flagged_actions).toHaveLength(selected.length);
    for (const action of response.body.flagged_actions) {
      expect(action).toMatchObject({
        action_type: 'purchase',
        plan_id: planId,
        org_id: seeded.orgId,
        user_id: email,
      });
      expect(['submitted', 'executed']).toContain(action.status);
    }
    const membership = await seeded.server.api.runtime.ctx.repos.memberships.get(seeded.orgId, email);
    expect(membership?.role).toBe('user');

    expect((await settledPlan(seeded, planId, () => purchases(planId))).status).toBe('completed');
    const records = await purchases(planId);
    expect(records.every((record) => record.status === 'completed')).toBe(true);
    const later = await purchaseFor(planId, { email });
    expect(later.status).toBe(409);
  });
});

describe('Idempotency-Key on apply', () => {
  it('replays the first answer for the same key and request, and buys nothing twice', async () => {
    // Prepare: a default plan of an org of its own (the demo org's AWS usage is covered by now)
    const { plans, key } = await orgOfTwoFamilies('Idempotent buyer');
    const defaults = await call(`${plans}/default?provider=aws`, { apiKey: key.apiKey });
    expect(defaults.status).toBe(200);
    const [recommended, plan] = defaults.body as { id: string; name: string }[];
    if (!recommended || !plan) throw new Error('no default AWS plans');
    const headers = { 'idempotency-key': `apply-${plan.id}` };
    const applyWithKey = (planId: string) =>
      call(`${plans}/${planId}/apply`, { method: 'POST', apiKey: key.apiKey, headers });

    // Act
    const first = await applyWithKey(plan.id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const { status } = await settledPlanOf(() => call(`${plans}/${plan.id}`, { apiKey: key.apiKey }));
    const replay = await applyWithKey(plan.id);

    // Assess
    expect(status).toBe('completed');
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const bought = marketplacePurchasesOf(plan.id);
    const records = (await call(`${plans}/${plan.id}/purchases?page_size=100`, { apiKey: key.apiKey })).body;
    expect(bought.size).toBe(records.length);
    expect([...bought.values()].every((count) => count === 1)).toBe(true);

    const before = await seeded.server.snapshot();
    const reused = await applyWithKey(recommended.id);
    expect(reused.status).toBe(422);
    expect(Object.keys(reused.body.errors)).toContain('Idempotency-Key');
    expect(tableChanges(before, await seeded.server.snapshot())).toEqual([]);
  });
});

describe('an offer the provider refuses', () => {
  it('fails its purchase with the message, completes the others and leaves the plan needing review', async () => {
    // Prepare: an org of its own (the demo org's AWS usage is covered by what the earlier tests
    // bought), whose recommended plan has a line for each of its two families
    const { plans, key } = await orgOfTwoFamilies('Refused offer');
    const recommended = await call(`${plans}/recommended?provider=aws`, { apiKey: key.apiKey });
    expect(recommended.status).toBe(200);
    const planId = recommended.body.id as string;
    const lines = await call(`${plans}/${planId}/line-items?page_size=100`, { apiKey: key.apiKey });
    // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
    const selected = (lines.body as any[]).filter((item) => item.is_selected && item.selected_quantity > 0);
    expect(selected.length).toBeGreaterThan(1);
    const refusedItem = selected[0];
    const message = 'Offering sold out in this region';
    seeded.server.api.purchasing.marketplace.failOffer(refusedItem.offer_id, message);

    // Act
    const applied = await call(`${plans}/${planId}/apply`, { method: 'POST', apiKey: key.apiKey });

    // Assess
    expect(applied.status).toBe(200);
    const { status } = await settledPlanOf(() => call(`${plans}/${planId}`, { apiKey: key.apiKey }));
    expect(status).toBe('needs_review');
    // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
    const records: any[] = (await call(`${plans}/${planId}/purchases?page_size=100`, { apiKey: key.apiKey }))
      .body;
    const failed = records.filter((record) => record.status === 'failed');
    expect(failed.map((record) => record.line_item_id)).toEqual(
      selected.filter((item) => item.offer_id === refusedItem.offer_id).map((item) => item.id),
    );
    for (const record of failed) {
      expect(record.error).toContain(message);
      expect(record.provider_ids).toEqual([]);
    }
    const others = records.filter((record) => record.status !== 'failed');
    expect(others.length).toBe(records.length - failed.length);
    expect(others.every((record) => record.status === 'completed')).toBe(true);
    seeded.server.api.purchasing.marketplace.stopFailing(refusedItem.offer_id);
  });
});
