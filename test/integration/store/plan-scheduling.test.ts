/**
 * The apply's last write (docs/purchases.md, Applying; docs/data-model.md, Transactions): the
 * plan's move to `scheduled`, the check of the computation's claim and #13's new member, in one
 * transaction on dynalite. A failed condition is named and nothing is written.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, PlanScheduling, WithPlanComputation } from '../../../shared/app/ports';
import type { Membership } from '../../../shared/domain/orgs';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { appliedComputationKey } from '../../../shared/store/keys';
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

const AT = '2026-11-28T01:00:00.000Z';

/** A new org's recommended plan, its computation claimed by the plan as `appliedBy`. */
async function claimedPlan(appliedBy: string): Promise<PlanScheduling> {
  const { orgId, planId } = await orgWithRecommendedPlan(base);
  const [stored] = await table.store.plans.getPlans(orgId, 'aws', [planId]);
  if (!stored) throw new Error('no plan');
  await table.store.plans.claimComputation(orgId, 'aws', stored.usageVersion, {
    planId,
    appliedBy,
    appliedAt: AT,
  });
  return {
    orgId,
    provider: 'aws',
    planId,
    usageVersion: stored.usageVersion,
    from: ['new', 'reviewed', 'needs_review'],
    at: AT,
    appliedBy,
    newMember: newMember(orgId, appliedBy),
  };
}

function newMember(orgId: string, email: string): Membership {
  return { orgId, email, role: 'user', createdAt: AT, updatedAt: AT };
}

async function statusOf(scheduling: PlanScheduling): Promise<string | undefined> {
  const [stored] = await table.store.plans.getPlans(scheduling.orgId, 'aws', [scheduling.planId]);
  return stored?.plan.status;
}

describe('scheduleApplication', () => {
  it('schedules the plan as the user and makes them a member with their user, in one write', async () => {
    // Prepare
    const scheduling = await claimedPlan('new@buyer.example');

    // Act
    const outcome = await table.store.plans.scheduleApplication(scheduling);

    // Assess
    expect(outcome.scheduled).toBe(true);
    if (!outcome.scheduled) return;
    expect(outcome.plan.plan.status).toBe('scheduled');
    expect(outcome.plan.application).toEqual({
      appliedBy: 'new@buyer.example',
      appliedAt: AT,
      lastModified: AT,
    });
    expect(await table.store.memberships.get(scheduling.orgId, 'new@buyer.example')).toEqual(
      newMember(scheduling.orgId, 'new@buyer.example'),
    );
    expect(await table.store.memberships.listByUser('new@buyer.example')).toHaveLength(1);
    expect(await table.store.users.get('new@buyer.example')).toEqual({
      email: 'new@buyer.example',
      name: null,
      createdAt: AT,
    });
  });

  it("keeps an existing user's name and creation time", async () => {
    // Prepare
    const email = `named-${Date.now()}@buyer.example`;
    await table.store.users.ensure({ email, name: 'Named Buyer', createdAt: '2025-01-01T00:00:00.000Z' });
    const scheduling = await claimedPlan(email);

    // Act
    const outcome = await table.store.plans.scheduleApplication(scheduling);

    // Assess
    expect(outcome.scheduled).toBe(true);
    expect(await table.store.users.get(email)).toEqual({
      email,
      name: 'Named Buyer',
      createdAt: '2025-01-01T00:00:00.000Z',
    });
  });

  it('writes nothing when a sibling holds the computation: no membership, no user, the plan still new', async () => {
    // Prepare: a sibling's apply took the computation after this plan's claim.
    const email = `late-${Date.now()}@buyer.example`;
    const scheduling = await claimedPlan(email);
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...appliedComputationKey(scheduling.orgId, 'aws', scheduling.usageVersion),
          type: 'applied_computation',
          planId: 'sibling-plan',
          appliedBy: 'other@buyer.example',
          appliedAt: AT,
        },
      }),
    );

    // Act
    const outcome = await table.store.plans.scheduleApplication(scheduling);

    // Assess
    expect(outcome).toEqual({ scheduled: false, failed: ['computation_claim'] });
    expect(await table.store.memberships.get(scheduling.orgId, email)).toBeNull();
    expect(await table.store.users.get(email)).toBeNull();
    expect(await statusOf(scheduling)).toBe('new');
  });

  it('names every failed condition: a plan already scheduled and an e-mail already a member', async () => {
    // Prepare
    const scheduling = await claimedPlan('twice@buyer.example');
    expect((await table.store.plans.scheduleApplication(scheduling)).scheduled).toBe(true);

    // Act
    const again = await table.store.plans.scheduleApplication(scheduling);

    // Assess
    expect(again).toEqual({ scheduled: false, failed: ['plan_status', 'not_a_member'] });
  });

  it('leaves the plan unscheduled when only the membership condition fails', async () => {
    // Prepare: the e-mail became a member after the call decided it was not one.
    const email = `raced-${Date.now()}@buyer.example`;
    const scheduling = await claimedPlan(email);
    await table.store.memberships.put({ ...newMember(scheduling.orgId, email), role: 'support' });

    // Act
    const outcome = await table.store.plans.scheduleApplication(scheduling);

    // Assess
    expect(outcome).toEqual({ scheduled: false, failed: ['not_a_member'] });
    expect(await statusOf(scheduling)).toBe('new');
    expect((await table.store.memberships.get(scheduling.orgId, email))?.role).toBe('support');
  });
});
