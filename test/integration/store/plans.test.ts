import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanBasis } from '../../../shared/app/ports';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { computePlans, type ProviderPlans, type UsageStream } from '../../../shared/domain/engine';
import { planKey, planPartition } from '../../../shared/store/keys';
import { queryAll } from '../../../shared/store/table-client';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startTestTable();
});

afterAll(async () => {
  await table.close();
});

const window = { start: '2026-06-01T00:00:00Z', hours: 720 };

function stream(resourceId: string, instanceType: string, unitsAt: (t: number) => number): UsageStream {
  const price = loadCatalog().ondemandPrice({
    provider: 'gcp',
    region: 'us-central1',
    instanceType,
    operatingSystem: 'Linux',
    tenancy: 'Shared',
  }) as number;
  return {
    resourceId,
    provider: 'gcp',
    accountId: 'acme-prod',
    region: 'us-central1',
    service: 'Compute Engine',
    instanceType,
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    usageType: 'running',
    usageUnit: 'Hrs',
    ondemandPrice: price,
    usage: Float64Array.from({ length: window.hours }, (_, t) => unitsAt(t)),
  };
}

/** The engine's plans of a small GCP fleet: two groups, so each plan has two line items. */
function computedPlans(orgId: string, usageVersion = 1): { basis: PlanBasis; plans: ProviderPlans } {
  const basis: PlanBasis = {
    usageVersion,
    planSeed: `${orgId}/gcp/${usageVersion}`,
    window,
    sharing: 'organization',
    renewalHorizonDays: 30,
  };
  const plans = computePlans({
    orgId,
    provider: 'gcp',
    window,
    streams: [
      stream('a-1', 'n2-standard-8', () => 1),
      stream('a-2', 'n2-standard-8', (t) => (t % 2 === 0 ? 1 : 0)),
      stream('b-1', 'n2-standard-4', () => 1),
    ],
    commitments: [],
    offers: loadCatalog().offers('gcp'),
    planSeed: basis.planSeed,
    createdAt: '2026-07-01T00:00:00.000Z',
  });
  return { basis, plans };
}

describe('plan repository', () => {
  it('stores a plan set and reads back its plans, line items, matches and purchase plan as computed', async () => {
    // Prepare
    const orgId = randomUUID();
    const { basis, plans } = computedPlans(orgId);
    const [recommended, , highSavings] = plans.plans;

    // Act
    await table.store.computedPlans.storePlans(orgId, basis, plans);

    // Assess
    const ids = plans.plans.map((entry) => entry.plan.id);
    const stored = await table.store.plans.getPlans(orgId, 'gcp', [...ids].reverse());
    // Stored with the catalog version it was priced with (the basis names none: the bundled one).
    expect(stored.map((entry) => entry.plan)).toEqual(
      plans.plans.map((entry) => ({ ...entry.plan, catalog_version: 'bundled' })).reverse(),
    );
    expect(stored[0]).toMatchObject({
      orgId,
      provider: 'gcp',
      usageVersion: 1,
      planSeed: basis.planSeed,
      window,
    });
    const content = await table.store.plans.planContent(orgId, highSavings?.plan.id as string);
    expect(content).toEqual({
      planId: highSavings?.plan.id,
      orgId,
      provider: 'gcp',
      ...basis,
      catalogVersion: 'bundled',
      createdAt: '2026-07-01T00:00:00.000Z',
      lineItems: highSavings?.lineItems,
    });
    expect(content?.lineItems).toHaveLength(2);
    expect(await table.store.plans.listResourceMatches(highSavings?.plan.id as string)).toEqual(
      Array.from(highSavings?.resourceMatches ?? []),
    );
    expect(await table.store.plans.purchasePlan(recommended?.plan.id as string)).toEqual(plans.purchasePlan);
    expect(await table.store.plans.purchasePlan(highSavings?.plan.id as string)).toBeNull();
  });

  it('reads the matches of some line items, and which line item each match belongs to', async () => {
    // Prepare
    const orgId = randomUUID();
    const { basis, plans } = computedPlans(orgId);
    const highSavings = plans.plans[2];
    await table.store.computedPlans.storePlans(orgId, basis, plans);
    const planId = highSavings?.plan.id as string;
    const second = highSavings?.lineItems[1]?.id as string;

    // Act
    const matches = await table.store.plans.listResourceMatches(planId, [second, second]);
    const owners = await table.store.plans.resourceMatchLineItems(planId);

    // Assess
    expect(matches).toEqual(
      Array.from(highSavings?.resourceMatches ?? []).filter((entry) => entry.lineItemId === second),
    );
    expect(matches.length).toBeGreaterThan(0);
    expect(owners).toEqual(
      new Map(
        Array.from(highSavings?.resourceMatches ?? []).map((entry) => [entry.match.id, entry.lineItemId]),
      ),
    );
  });

  it('finds a plan only under its own org', async () => {
    // Prepare
    const orgId = randomUUID();
    const { basis, plans } = computedPlans(orgId);
    await table.store.computedPlans.storePlans(orgId, basis, plans);
    const planId = plans.plans[0]?.plan.id as string;

    // Act
    const elsewhere = await table.store.plans.planContent(randomUUID(), planId);
    const unknown = await table.store.plans.planContent(orgId, randomUUID());

    // Assess
    expect(elsewhere).toBeNull();
    expect(unknown).toBeNull();
  });

  it('lets one computation claim a plan set at a time, until its claim expires', async () => {
    // Prepare
    const orgId = randomUUID();
    const at = (minutesAgo: number) =>
      new Date(Date.parse('2026-07-01T12:00:00Z') - minutesAgo * 60_000).toISOString();
    const claim = (claimId: string, startedAt: string) => ({ claimId, usageVersion: 3, startedAt });

    // Act
    const first = await table.store.computedPlans.claimCalculation(orgId, 'aws', claim('one', at(3)), at(5));
    // Claims older than 4 minutes are dead: the first, 3 minutes old, is not.
    const whileLive = await table.store.computedPlans.claimCalculation(
      orgId,
      'aws',
      claim('two', at(1)),
      at(4),
    );
    // Claims older than 2 minutes are dead: the first is.
    const afterExpiry = await table.store.computedPlans.claimCalculation(
      orgId,
      'aws',
      claim('three', at(0)),
      at(2),
    );

    // Assess
    expect([first, whileLive, afterExpiry]).toEqual([true, false, true]);
    expect(await table.store.plans.planSet(orgId, 'aws')).toEqual({
      orgId,
      provider: 'aws',
      computed: null,
      calculation: { claimId: 'three', usageVersion: 3, startedAt: at(0) },
    });
  });

  it('publishes a plan set only for the claim that holds it, and refuses to claim a computed version', async () => {
    // Prepare
    const orgId = randomUUID();
    const now = new Date().toISOString();
    const computed = {
      usageVersion: 2,
      planIds: ['p1', 'p2', 'p3'],
      recommendedPlanId: 'p1',
      computedAt: now,
    };
    await table.store.computedPlans.claimCalculation(
      orgId,
      'gcp',
      { claimId: 'mine', usageVersion: 2, startedAt: now },
      now,
    );

    // Act
    const byOther = await table.store.computedPlans.completeCalculation(orgId, 'gcp', 'other', computed);
    const byHolder = await table.store.computedPlans.completeCalculation(orgId, 'gcp', 'mine', computed);
    const again = await table.store.computedPlans.claimCalculation(
      orgId,
      'gcp',
      { claimId: 'late', usageVersion: 2, startedAt: now },
      now,
    );

    // Assess
    expect([byOther, byHolder, again]).toEqual([false, true, false]);
    expect(await table.store.plans.planSet(orgId, 'gcp')).toEqual({
      orgId,
      provider: 'gcp',
      computed,
      calculation: null,
    });
  });

  it('releases a claim so that another computation may start at once', async () => {
    // Prepare
    const orgId = randomUUID();
    const now = new Date().toISOString();
    const past = '2026-01-01T00:00:00Z';
    await table.store.computedPlans.claimCalculation(
      orgId,
      'gcp',
      { claimId: 'failed', usageVersion: 1, startedAt: now },
      past,
    );

    // Act
    await table.store.computedPlans.releaseCalculation(orgId, 'gcp', 'failed');
    const next = await table.store.computedPlans.claimCalculation(
      orgId,
      'gcp',
      { claimId: 'next', usageVersion: 1, startedAt: now },
      past,
    );

    // Assess
    expect(next).toBe(true);
  });

  it('deletes a plan and everything under it, but keeps a plan that was applied', async () => {
    // Prepare
    const orgId = randomUUID();
    const { basis, plans } = computedPlans(orgId);
    await table.store.computedPlans.storePlans(orgId, basis, plans);
    const [recommended, applied] = plans.plans.map((entry) => entry.plan.id) as [string, string, string];
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: planKey(orgId, 'gcp', applied),
        UpdateExpression: 'SET #status = :scheduled',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':scheduled': 'scheduled' },
      }),
    );

    // Act
    const deleted = await table.store.computedPlans.deletePlan(orgId, 'gcp', recommended);
    const kept = await table.store.computedPlans.deletePlan(orgId, 'gcp', applied);

    // Assess
    expect([deleted, kept]).toEqual([true, false]);
    const partition = (planId: string) =>
      queryAll(table, {
        KeyConditionExpression: 'PK = :plan',
        ExpressionAttributeValues: { ':plan': planPartition(planId) },
      });
    expect(await partition(recommended)).toEqual([]);
    expect(await table.store.plans.getPlans(orgId, 'gcp', [recommended])).toEqual([]);
    expect((await partition(applied)).length).toBeGreaterThan(0);
    expect((await table.store.plans.getPlans(orgId, 'gcp', [applied]))[0]?.plan.status).toBe('scheduled');
  });
});
