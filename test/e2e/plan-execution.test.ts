import { describe, expect, it } from 'vitest';
import { changeSimulatedCloud } from '../../local/simulated-cloud';
import type { ApiResponse } from '../support/api-client';
import { settledPlan, useSeededApi } from '../support/seeded-api';

/**
 * Executing plans over HTTP (docs/purchases.md): a completed purchase is owned and the plans are
 * recomputed at once; one plan per computation (409 `plan_sibling_applied`); an outdated plan
 * answers 409 `plan_outdated` naming its successor; concurrent #13 calls that are refused make
 * no one a member.
 */

const seeded = useSeededApi();
const { call } = seeded;
const repos = () => seeded.server.api.runtime.ctx.repos;

async function defaultPlans(provider: 'aws' | 'azure') {
  const response = await call(`${seeded.plansPath}/default?provider=${provider}`, {
    apiKey: seeded.adminKey,
  });
  expect(response.status).toBe(200);
  return response.body as { id: string; name: string; status: string }[];
}

function apply(planId: string): Promise<ApiResponse> {
  return call(`${seeded.plansPath}/${planId}/apply`, { method: 'POST', apiKey: seeded.adminKey });
}

function purchaseFor(planId: string, email: string): Promise<ApiResponse> {
  return call(`/v2/org/${seeded.orgId}/partners/purchase-plans-v2/${planId}/purchase`, {
    method: 'POST',
    apiKey: seeded.partnerKey,
    json: { email },
  });
}

describe('apply -> processor -> owned and recomputed', () => {
  it('owns what was bought and recomputes the plans before anyone reads them', async () => {
    // Prepare
    const [recommended] = await defaultPlans('aws');
    if (!recommended) throw new Error('no AWS plan');
    const versionBefore = (await repos().usage.usageState(seeded.orgId, 'aws'))?.usageVersion ?? 0;
    // Act
    const applied = await apply(recommended.id);
    // Assess
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect((await settledPlan(seeded, recommended.id)).status).toBe('completed');
    const records = await repos().purchases.listByPlan(recommended.id);
    const owned = await repos().commitments.listCommitments(seeded.orgId, 'aws');
    for (const record of records) expect(owned.map((each) => each.id)).toContain(record.id);
    const [usageState, planSet] = await Promise.all([
      repos().usage.usageState(seeded.orgId, 'aws'),
      repos().plans.planSet(seeded.orgId, 'aws'),
    ]);
    expect(usageState?.usageVersion).toBeGreaterThan(versionBefore);
    expect(planSet?.computed?.usageVersion).toBe(usageState?.usageVersion);
    expect(planSet?.computed?.planIds).not.toContain(recommended.id);
  });
});

describe('an outdated plan', () => {
  it("answers 409 plan_outdated naming its successor once the org's inputs changed", async () => {
    // Prepare: the org's inputs change after the plans were computed (as an import does).
    const [plan] = await defaultPlans('aws');
    if (!plan) throw new Error('no AWS plan');
    await repos().usage.raisePlanInputsVersion(seeded.orgId, 'aws', new Date().toISOString());
    // Act
    const response = await apply(plan.id);
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.reason).toBe('plan_outdated');
    const successor = (await defaultPlans('aws')).find((each) => each.name === plan.name);
    expect(successor?.id).toBeDefined();
    expect(successor?.id).not.toBe(plan.id);
    expect(response.body.successor_plan_id).toBe(successor?.id);
    expect(await repos().purchases.listByPlan(plan.id)).toEqual([]);
  });
});

describe('one plan per computation', () => {
  it('answers 409 plan_sibling_applied to a sibling of an applied plan, and three concurrent #13 calls on it make no one a member', async () => {
    // Prepare: #13 buys the recommended plan; another default plan of the same set is applied first.
    const v2 = await call(`/v2/org/${seeded.orgId}/partners/purchase-plans-v2/recommended?provider=azure`, {
      apiKey: seeded.partnerKey,
    });
    expect(v2.status).toBe(200);
    const recommendedId: string = v2.body.id;
    const applied = (await defaultPlans('azure')).find((plan) => plan.id !== recommendedId);
    if (!applied) throw new Error('no second Azure plan');
    // The providers refuse the applied plan's purchases (the tenant's ARM: the app may not buy;
    // the simulated marketplace its leases): nothing is owned, so nothing recomputes the plans
    // and the sibling stays served (a completed purchase would supersede it: 404).
    const lines = await call(`${seeded.plansPath}/${applied.id}/line-items?page_size=100`, {
      apiKey: seeded.adminKey,
    });
    const offerIds = [...new Set((lines.body as { offer_id: string }[]).map((line) => line.offer_id))];
    for (const offerId of offerIds) seeded.server.api.purchasing.marketplace.failOffer(offerId, 'sold out');
    const refuse = (deny: boolean) =>
      changeSimulatedCloud(seeded.server.dir, (cloud) => {
        for (const tenant of Object.values(cloud.azure)) {
          for (const subscription of Object.values(tenant.subscriptions)) subscription.purchase = { deny };
        }
      });
    await refuse(true);
    expect((await apply(applied.id)).status).toBe(200);
    expect((await settledPlan(seeded, applied.id)).status).toBe('needs_review');
    const emails = ['x@newcomer.example', 'y@newcomer.example', 'z@newcomer.example'];
    // Act
    const direct = await apply(recommendedId);
    const concurrent = await Promise.all(emails.map((email) => purchaseFor(recommendedId, email)));
    // Assess
    expect(direct.status).toBe(409);
    expect(direct.body.reason).toBe('plan_sibling_applied');
    for (const response of concurrent) {
      expect(response.status).toBe(409);
      expect(response.body.reason).toBe('plan_sibling_applied');
    }
    for (const email of emails) expect(await repos().memberships.get(seeded.orgId, email)).toBeNull();
    expect(await repos().purchases.listByPlan(recommendedId)).toEqual([]);
    await refuse(false);
    for (const offerId of offerIds) seeded.server.api.purchasing.marketplace.stopFailing(offerId);
  });
});
