import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRecommendedPlan, listDefaultPlans } from '../../../shared/app/commitment-plans';
import { type ApplyContext, applyPlan, purchasePlanFor } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { setMaxUpfrontCost } from '../../../shared/app/purchase-operations';
import { type ProcessorContext, processPurchase } from '../../../shared/app/purchase-processing';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { ConflictError, InsufficientScopeError, ReasonedConflictError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { appliedComputationKey } from '../../../shared/store/keys';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';
import { aPurchaseRecord } from '../../support/purchase-records';

/**
 * One plan per computation, outdated plans, the org's upfront cap over 30 days, and #13 deciding
 * everything before it writes (docs/purchases.md), on dynalite.
 */

/**
 * An org with a recommended plan computed within an upfront cap of `maxUpfrontCost` (setting the
 * cap makes the plans computed before it stale).
 */
async function cappedOrg(maxUpfrontCost: number) {
  const { orgId, user } = await orgWithRecommendedPlan(base);
  await setMaxUpfrontCost(base, orgId, maxUpfrontCost);
  const plan = await getRecommendedPlan(base, user, orgId, 'aws');
  if (!plan) throw new Error('no recommended plan within the cap');
  return { orgId, user, planId: plan.id };
}

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

function applying(sent: PurchaseMessage[] = []): ApplyContext {
  return { ...base, purchaseQueue: { send: async (messages) => void sent.push(...messages) }, catalog };
}

const partner = (orgId: string, scopes: readonly string[]): Principal => ({ kind: 'partner', orgId, scopes });

/** The reason of a refused call, or what it answered. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'applied';
  } catch (error) {
    if (error instanceof ReasonedConflictError) return error.reason;
    if (error instanceof InsufficientScopeError) return `insufficient_scope ${error.scope}`;
    if (error instanceof ConflictError) return 'conflict';
    throw error;
  }
}

describe('one plan per computation', () => {
  it('refuses a sibling of an applied plan with plan_sibling_applied, writing nothing', async () => {
    // Prepare
    const { orgId, planId, user } = await orgWithRecommendedPlan(base);
    const siblings = (await listDefaultPlans(base, user, orgId, 'aws')).filter((plan) => plan.id !== planId);
    expect(siblings.length).toBeGreaterThan(0);
    await applyPlan(applying(), user, orgId, planId);
    // Act
    const reasons = await Promise.all(
      siblings.map((plan) => refusal(applyPlan(applying(), user, orgId, plan.id))),
    );
    // Assess
    expect(reasons.every((reason) => reason === 'plan_sibling_applied')).toBe(true);
    for (const sibling of siblings) {
      expect(await table.store.purchases.listByPlan(sibling.id)).toEqual([]);
      const [stored] = await table.store.plans.getPlans(orgId, 'aws', [sibling.id]);
      expect(stored?.plan.status).toBe('new');
    }
  });

  it('lets exactly one of two siblings applied at once win', async () => {
    // Prepare
    const { orgId, user } = await orgWithRecommendedPlan(base);
    const [first, second] = await listDefaultPlans(base, user, orgId, 'aws');
    if (!first || !second) throw new Error('fewer than two default plans');
    // Act
    const reasons = await Promise.all([
      refusal(applyPlan(applying(), user, orgId, first.id)),
      refusal(applyPlan(applying(), user, orgId, second.id)),
    ]);
    // Assess
    expect(reasons.sort()).toEqual(['applied', 'plan_sibling_applied']);
    const records = [
      ...(await table.store.purchases.listByPlan(first.id)),
      ...(await table.store.purchases.listByPlan(second.id)),
    ];
    expect(new Set(records.map((record) => record.planId)).size).toBeLessThanOrEqual(1);
  });
});

describe('a purchase completing', () => {
  it('owns the commitments and recomputes the plans at once, before anyone reads them', async () => {
    // Prepare
    const { orgId, planId, user } = await orgWithRecommendedPlan(base);
    const sent: PurchaseMessage[] = [];
    const processing: ProcessorContext = { ...base, marketplace: new SimulatedMarketplace(), catalog };
    await applyPlan(applying(sent), user, orgId, planId);
    const before = await table.store.usage.usageState(orgId, 'aws');
    // Act
    for (const message of sent) await processPurchase(processing, message);
    // Assess
    const [usageState, planSet] = await Promise.all([
      table.store.usage.usageState(orgId, 'aws'),
      table.store.plans.planSet(orgId, 'aws'),
    ]);
    expect(usageState?.usageVersion).toBeGreaterThan(before?.usageVersion ?? 0);
    expect(planSet?.computed?.usageVersion).toBe(usageState?.usageVersion);
    const records = await table.store.purchases.listByPlan(planId);
    const owned = await table.store.commitments.listCommitments(orgId, 'aws');
    expect(owned.map((each) => each.id).sort()).toEqual(records.map((each) => each.id).sort());
  });
});

describe('an outdated plan', () => {
  it("answers plan_outdated once the org's inputs changed, naming the plan computed since", async () => {
    // Prepare: the org's inputs change (as a commitments import or a setting does) after the plan was computed.
    const { orgId, planId, user } = await orgWithRecommendedPlan(base);
    const [old] = await table.store.plans.getPlans(orgId, 'aws', [planId]);
    await table.store.usage.raisePlanInputsVersion(orgId, 'aws', new Date().toISOString());
    // Act
    const error = await applyPlan(applying(), user, orgId, planId).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ReasonedConflictError);
    const refused = error as ReasonedConflictError;
    expect(refused.reason).toBe('plan_outdated');
    const planSet = await table.store.plans.planSet(orgId, 'aws');
    const current = await table.store.plans.getPlans(orgId, 'aws', planSet?.computed?.planIds ?? []);
    const successor = current.find((each) => each.plan.name === old?.plan.name)?.plan.id;
    expect(successor).toBeDefined();
    expect(successor).not.toBe(planId);
    expect(refused.successorPlanId).toBe(successor);
    expect(refused.message).toContain(`apply its successor ${successor}`);
    expect(await table.store.purchases.listByPlan(planId)).toEqual([]);
  });
});

describe("the org's upfront cap", () => {
  it("counts another plan's purchases of the last 30 days, not only the plan's own", async () => {
    // Prepare: a $999 cap (the plan computed within it), then another plan of the org bought $1,000 upfront yesterday.
    const { orgId, user, planId } = await cappedOrg(999);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await table.store.purchases.createRecords([
      aPurchaseRecord({
        orgId,
        status: 'completed',
        createdAt: yesterday,
        completedAt: yesterday,
        upfrontCost: 1000,
        plannedUpfrontCost: 1000,
      }),
    ]);
    // Act
    const reason = await refusal(applyPlan(applying(), user, orgId, planId));
    // Assess: whatever this plan pays upfront, $1,000 already passes the $999 cap.
    expect(reason).toBe('max_upfront_cost_exceeded');
    expect(await table.store.purchases.listByPlan(planId)).toEqual([]);
  });
});

describe('purchasing a plan for a user (#13)', () => {
  it('makes no one a member when three concurrent calls are refused', async () => {
    // Prepare
    const { orgId, planId } = await cappedOrg(10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await table.store.purchases.createRecords([
      aPurchaseRecord({
        orgId,
        status: 'completed',
        createdAt: yesterday,
        completedAt: yesterday,
        upfrontCost: 50,
        plannedUpfrontCost: 50,
      }),
    ]);
    const emails = ['a@buyer.example', 'b@buyer.example', 'c@buyer.example'];
    // Act
    const reasons = await Promise.all(
      emails.map((email) =>
        refusal(purchasePlanFor(applying(), partner(orgId, ['*']), orgId, planId, email)),
      ),
    );
    // Assess
    expect(reasons).toEqual([
      'max_upfront_cost_exceeded',
      'max_upfront_cost_exceeded',
      'max_upfront_cost_exceeded',
    ]);
    for (const email of emails) expect(await table.store.memberships.get(orgId, email)).toBeNull();
  });

  it('makes only the winner of three concurrent calls a member', async () => {
    // Prepare
    const { orgId, planId } = await orgWithRecommendedPlan(base);
    const emails = ['a@buyer.example', 'b@buyer.example', 'c@buyer.example'];
    // Act
    const reasons = await Promise.all(
      emails.map((email) =>
        refusal(purchasePlanFor(applying(), partner(orgId, ['*']), orgId, planId, email)),
      ),
    );
    // Assess
    expect(reasons.filter((reason) => reason === 'applied')).toHaveLength(1);
    const winner = emails[reasons.indexOf('applied')];
    for (const email of emails) {
      const membership = await table.store.memberships.get(orgId, email);
      expect(membership?.role ?? null).toBe(email === winner ? 'user' : null);
    }
    const [stored] = await table.store.plans.getPlans(orgId, 'aws', [planId]);
    expect(stored?.application?.appliedBy).toBe(winner);
  });

  it('makes no one a member when the scheduling transaction fails: a sibling took the computation meanwhile', async () => {
    // Prepare: between this call's claim and its transaction, a sibling's apply holds the
    // computation (as a takeover of the claim would leave it).
    const { orgId, planId } = await orgWithRecommendedPlan(base);
    const siblingId = (await table.store.plans.planSet(orgId, 'aws'))?.computed?.planIds.find(
      (id) => id !== planId,
    );
    if (!siblingId) throw new Error('no sibling plan');
    const email = 'late@buyer.example';
    const plans = table.store.plans;
    const racing: ApplyContext = {
      ...applying(),
      repos: {
        ...table.store,
        plans: {
          ...plans,
          async scheduleApplication(scheduling) {
            await table.client.send(
              new PutCommand({
                TableName: table.tableName,
                Item: {
                  ...appliedComputationKey(orgId, 'aws', scheduling.usageVersion),
                  type: 'applied_computation',
                  planId: siblingId,
                  appliedBy: 'sibling@buyer.example',
                  appliedAt: scheduling.at,
                },
              }),
            );
            return plans.scheduleApplication(scheduling);
          },
        },
      },
    };
    // Act
    const reason = await refusal(purchasePlanFor(racing, partner(orgId, ['*']), orgId, planId, email));
    // Assess
    expect(reason).toBe('plan_sibling_applied');
    expect(await table.store.memberships.get(orgId, email)).toBeNull();
    expect(await table.store.users.get(email)).toBeNull();
    const [stored] = await table.store.plans.getPlans(orgId, 'aws', [planId]);
    expect(stored?.plan.status).toBe('new');
    expect(stored?.application).toBeNull();
  });

  it('needs org:write besides plans:apply to make a non-member a member, writing nothing without it', async () => {
    // Prepare
    const { orgId, planId } = await orgWithRecommendedPlan(base);
    const email = 'outsider@buyer.example';
    // Act
    const reason = await refusal(
      purchasePlanFor(applying(), partner(orgId, ['plans:read', 'plans:apply']), orgId, planId, email),
    );
    // Assess
    expect(reason).toBe('insufficient_scope org:write');
    expect(await table.store.memberships.get(orgId, email)).toBeNull();
    expect(await table.store.purchases.listByPlan(planId)).toEqual([]);
    const [stored] = await table.store.plans.getPlans(orgId, 'aws', [planId]);
    expect(stored?.plan.status).toBe('new');
    const withBoth = await refusal(
      purchasePlanFor(applying(), partner(orgId, ['plans:apply', 'org:write']), orgId, planId, email),
    );
    expect(withBoth).toBe('applied');
    expect((await table.store.memberships.get(orgId, email))?.role).toBe('user');
  });
});
