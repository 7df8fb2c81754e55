/**
 * Ordered purchases are owned (docs/plan-engine.md, Ordered purchases) on dynalite: a purchase
 * the org has ordered and not had refused counts in every plan and in the chart from the moment
 * it is ordered, and a later re-import of the same commitments (what a daily sync does) does not
 * make the next plan buy it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../shared/app/bundled-catalog';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { commitmentsChart } from '../../../shared/app/commitments-chart';
import { storeProviderCommitments } from '../../../shared/app/import-commitments';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import { listPlanResourceMatches } from '../../../shared/app/plan-resource-matches';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { CommitmentPlan, ExistingCommitment } from '../../../shared/domain/engine';
import type { Principal } from '../../../shared/domain/principal';
import { effectiveHourly } from '../../../shared/domain/purchases/purchase-orders';
import { randomIds } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { alwaysOn, fleet, recordsOf, usageLines } from '../../support/usage-files';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

let table: TestTable;
const nowMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS + 5 * 60_000;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: { now: () => new Date(nowMs) }, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

/** 2 x m5.large reserved for a year, ending in 10 days: renewed by the next plan (30-day horizon). */
function endingReservation(): ExistingCommitment {
  const end = nowMs + 10 * DAY_MS;
  return {
    id: 'ri-ending',
    provider: 'aws',
    accountId: '111122223333',
    region: 'us-east-1',
    contractType: 'standard_ris',
    instanceType: 'm5.large',
    quantity: 2,
    hourlyCommitment: 0,
    upfrontCost: 0,
    recurringCost: 0.06,
    start: new Date(end - 8760 * HOUR_MS).toISOString(),
    end: new Date(end).toISOString(),
    lockinEnd: new Date(end).toISOString(),
  };
}

/** The fleet: 8 m5.large always on over the last 720 hours, and the ending reservation. */
async function orgOfEightLarge(): Promise<{ orgId: string; user: Principal }> {
  const org = await createOrg(ctx, `Ordered ${ctx.ids.uuid()}`, null);
  const start = new Date(Math.floor(nowMs / HOUR_MS) * HOUR_MS - 720 * HOUR_MS).toISOString();
  const web = fleet(8, 'web', {
    provider: 'aws',
    accountId: '111122223333',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    unitsAt: alwaysOn,
  });
  await importUsage(ctx, { orgId: org.id, records: recordsOf(usageLines(start, 720, web)) });
  await storeProviderCommitments(ctx, org.id, 'aws', [endingReservation()]);
  const user: Principal = {
    kind: 'user',
    orgId: org.id,
    userId: 'ada@example.com',
    role: 'user',
    scopes: ['*'],
  };
  return { orgId: org.id, user };
}

async function recommended(orgId: string, user: Principal): Promise<CommitmentPlan> {
  const plans = await listDefaultPlans(ctx, user, orgId, 'aws');
  const plan = plans.find((each) => each.name === 'Recommended');
  if (!plan) throw new Error('no Recommended plan');
  return plan;
}

describe('ordered purchases are owned for planning (dynalite)', () => {
  it('after applying Recommended and re-importing the same commitments, no plan buys the ordered lines again', async () => {
    // Prepare: the first Recommended plan buys the 32 m5 units the fleet runs (or part of them).
    const { orgId, user } = await orgOfEightLarge();
    const first = await recommended(orgId, user);
    expect(first.covered_ondemand_cost_hourly).toBeGreaterThan(0);
    const purchaseQueue = { send: async () => undefined };

    // Act: apply it (its purchases stay queued: nothing processes them), then re-import.
    await applyPlan({ ...ctx, catalog: bundledCatalog, purchaseQueue }, user, orgId, first.id);
    const records = await table.store.purchases.listByOrg(orgId);
    await storeProviderCommitments(ctx, orgId, 'aws', [endingReservation()]);
    const again = await listDefaultPlans(ctx, user, orgId, 'aws');

    // Assess: every record queued; no plan selects anything; the ordered lines are owned: what
    // they cover is no longer on demand, and what they cost is the reserved cost before.
    expect(records.length).toBeGreaterThan(0);
    expect(records.map((record) => record.status)).toEqual(records.map(() => 'queued'));
    const catalog = await bundledCatalog();
    const orderedHourly = records.reduce((sum, record) => {
      const offer = catalog.offerById(record.offerId);
      if (!offer) throw new Error(`offer ${record.offerId} not in the catalog`);
      return sum + record.quantity * effectiveHourly(offer);
    }, 0);
    expect(again.map((plan) => plan.id)).not.toContain(first.id);
    for (const plan of again) {
      expect(plan.covered_ondemand_cost_hourly).toBe(0);
      expect(plan.before_ondemand_cost_hourly).toBeCloseTo(
        first.before_ondemand_cost_hourly - first.covered_ondemand_cost_hourly,
        9,
      );
      // Amortized cost, and the fee of a lease, as the first plan counted them.
      expect(plan.before_reserved_cost_hourly).toBeCloseTo(orderedHourly + first.fee_hourly, 9);
      expect(plan.before_reserved_cost_hourly).toBeCloseTo(first.total_cost_hourly, 9);
    }
  });

  it('charts an ordered purchase as owned: past the reservation it renews, the portfolio still holds it', async () => {
    // Prepare: the same fleet, Recommended applied (its purchases queued).
    const { orgId, user } = await orgOfEightLarge();
    const first = await recommended(orgId, user);
    const purchaseQueue = { send: async () => undefined };
    await applyPlan({ ...ctx, catalog: bundledCatalog, purchaseQueue }, user, orgId, first.id);

    // Act: the chart of the 20 days from today.
    const today = new Date(nowMs).toISOString().slice(0, 10);
    const endDate = new Date(nowMs + 20 * DAY_MS).toISOString().slice(0, 10);
    const points = await commitmentsChart(ctx, user, orgId, {
      provider: 'aws',
      criteria: [],
      startDate: today,
      endDate,
    });

    // Assess: on day 15 the reservation has ended; the ordered lines are what the chart holds,
    // and they cover the whole fleet (32 units, $0.768 an hour of on-demand value).
    const late = points.find(
      (point) => point.date === new Date(nowMs + 15 * DAY_MS).toISOString().slice(0, 10),
    );
    expect(late?.remaining_commit).toBeGreaterThan(0);
    // Ordered in the offer's unit (32 normalized units), owned in instances of the size bought.
    expect(late?.utilization).toBeCloseTo(1, 9);
    expect(late?.savings).toBeCloseTo(
      24 * (first.covered_ondemand_cost_hourly - first.amortized_cost_hourly),
      6,
    );
  });
});

describe('a stored plan keeps its own inputs', () => {
  it('matches over part of the lookback are the same before and after the plan is applied (its own purchases are not owned by it)', async () => {
    // Prepare: the fleet's Recommended plan; its matches over the lookback's second day.
    const { orgId, user } = await orgOfEightLarge();
    const plan = await recommended(orgId, user);
    const day = new Date(nowMs - 719 * HOUR_MS + DAY_MS).toISOString().slice(0, 10);
    const query = { startDate: day, endDate: day, order: { key: null, descending: false } as const };
    const before = await listPlanResourceMatches(ctx, user, orgId, plan.id, query);
    const purchaseQueue = { send: async () => undefined };

    // Act: apply it (its purchases queued), read the same matches.
    await applyPlan({ ...ctx, catalog: bundledCatalog, purchaseQueue }, user, orgId, plan.id);
    const after = await listPlanResourceMatches(ctx, user, orgId, plan.id, query);

    // Assess: the resources matched, each covered as before.
    expect(before.length).toBeGreaterThan(0);
    expect(after).toEqual(before);
  });
});
