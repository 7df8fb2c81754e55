/**
 * Plans judge owned commitments at the time they are computed (docs/plan-engine.md, Time is the
 * plan's), through the app: the plan's clock is the context's, the renewal horizon the org's.
 * The fleet: 4 m5.large (Linux, us-east-1) always on over the 720 hours of the lookback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg, setRenewalHorizonDays } from '../../../shared/app/operator';
import { computingPlansHere, refreshPlans } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { ExistingCommitment } from '../../../shared/domain/engine';
import { ValidationError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { alwaysOn, fleet, recordsOf, usageLines } from '../../support/usage-files';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const USAGE_START = Date.parse('2026-06-01T00:00:00Z');
// The usage's last hour starts at USAGE_START + 719 h; the window ends an hour later.
const WINDOW_END = USAGE_START + 720 * HOUR_MS;

let table: TestTable;
let now = WINDOW_END + 3 * HOUR_MS;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: { now: () => new Date(now) }, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const iso = (ms: number) => new Date(ms).toISOString();

/** 4 m5.large reserved over [start, end), as the org would own them after a purchase. */
function reservation(id: string, start: number, end: number): ExistingCommitment {
  return {
    id,
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    contractType: 'standard_ris',
    instanceType: 'm5.large',
    quantity: 4,
    hourlyCommitment: 0,
    upfrontCost: 0,
    recurringCost: 4 * 0.06,
    start: iso(start),
    end: iso(end),
    lockinEnd: iso(end),
  };
}

async function orgWithFleet(): Promise<{ orgId: string; principal: Principal }> {
  const org = await createOrg(ctx, `Plan time ${randomIds.uuid()}`, null);
  await importUsage(ctx, {
    orgId: org.id,
    records: recordsOf(
      usageLines(
        iso(USAGE_START),
        720,
        fleet(4, 'i-m5', {
          provider: 'aws',
          accountId: '111111111111',
          region: 'us-east-1',
          service: 'AmazonEC2',
          instanceType: 'm5.large',
          operatingSystem: 'Linux',
          unitsAt: alwaysOn,
        }),
      ),
    ),
  });
  const principal: Principal = {
    kind: 'user',
    orgId: org.id,
    userId: 'ada@example.com',
    role: 'admin',
    scopes: ['*'],
  };
  return { orgId: org.id, principal };
}

/** The org owns `owned` from now on; its plans are computed again, as after an import. */
async function owns(orgId: string, owned: readonly ExistingCommitment[]): Promise<void> {
  await ctx.repos.commitments.replaceCommitments(orgId, 'aws', owned);
  await ctx.repos.usage.raisePlanInputsVersion(orgId, 'aws', iso(now));
  await refreshPlans(ctx, orgId, 'aws');
}

async function highSavings(orgId: string, principal: Principal) {
  const plans = await listDefaultPlans(ctx, principal, orgId, 'aws');
  const plan = plans.find((entry) => entry.name === 'High Savings');
  if (!plan) throw new Error('no High Savings plan');
  return plan;
}

describe('owned commitments at the plan time', () => {
  it('counts a reservation that started 2 hours after the usage window: the plan buys nothing again', async () => {
    // Prepare: without it the plan saves money on the 4 always-on instances.
    now = WINDOW_END + 3 * HOUR_MS;
    const { orgId, principal } = await orgWithFleet();
    const before = await highSavings(orgId, principal);

    // Act
    await owns(orgId, [
      reservation('ri-after', WINDOW_END + 2 * HOUR_MS, WINDOW_END + 2 * HOUR_MS + 365 * DAY_MS),
    ]);
    const after = await highSavings(orgId, principal);

    // Assess: the 4 reserved cover all usage: nothing on demand, nothing to buy.
    expect(before.savings_hourly).toBeGreaterThan(0);
    expect(after.id).not.toBe(before.id);
    expect(after.before_ondemand_cost_hourly).toBe(0);
    expect(after.savings_hourly).toBe(0);
    expect(after.before_reserved_cost_hourly).toBeCloseTo(0.24, 12);
  });

  it("renews a reservation ending within the org's horizon and counts it once the horizon is shorter", async () => {
    // Prepare: the 4 reserved end 20 days after the plan's time.
    now = WINDOW_END + 3 * HOUR_MS;
    const { orgId, principal } = await orgWithFleet();
    await owns(orgId, [reservation('ri-expiring', now + 20 * DAY_MS - 365 * DAY_MS, now + 20 * DAY_MS)]);
    const withinDefault = await highSavings(orgId, principal);

    // Act
    const { org, recomputed } = await setRenewalHorizonDays(ctx, orgId, 10);
    const withinTen = await highSavings(orgId, principal);

    // Assess: 20 < 30 days: not counted, the plan covers the 4 again; 20 > 10 days: counted.
    expect(withinDefault.before_ondemand_cost_hourly).toBeGreaterThan(0);
    expect(withinDefault.savings_hourly).toBeGreaterThan(0);
    expect(org.renewalHorizonDays).toBe(10);
    expect(recomputed).toEqual(['aws']);
    expect(withinTen.before_ondemand_cost_hourly).toBe(0);
    expect(withinTen.savings_hourly).toBe(0);
  });

  it('refuses a renewal horizon that is not a whole number of days up to a year, writing nothing', async () => {
    // Prepare
    const { orgId } = await orgWithFleet();

    // Act, Assess
    for (const days of [-1, 1.5, 366]) {
      await expect(setRenewalHorizonDays(ctx, orgId, days)).rejects.toThrow(ValidationError);
    }
    expect((await ctx.repos.orgs.get(orgId))?.renewalHorizonDays).toBe(30);
  });
});
