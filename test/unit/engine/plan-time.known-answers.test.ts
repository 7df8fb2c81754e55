/**
 * Owned commitments are judged at the plan's time, not in the window's hours (docs/plan-engine.md,
 * Time is the plan's). Each case works its numbers by hand. The fleet: 4 m5.large always on over a
 * 24-hour window at $1 per instance-hour on demand; the catalog's one-year reservation costs
 * $0.5 an hour, so with nothing owned the plan buys all 4 (F(k) = 1 > 0.5 for k <= 4).
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, hourly, offer, stream } from './builders';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// The window: 2025-01-01T00:00Z for 24 hours, so it ends 2025-01-02T00:00Z.
const WINDOW_END = Date.parse('2025-01-02T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function planOwning(
  commitments: readonly ExistingCommitment[],
  planTime: number,
  renewalHorizonDays?: number,
) {
  const plans = computePlans(
    engineInput({
      hours: 24,
      streams: [stream({ usage: hourly(24, () => 4) })],
      offers: [offer({ id: 'o1', recurring: 0.5 })],
      commitments: [...commitments],
      profiles: [HIGH_SAVINGS],
      createdAt: iso(planTime),
      ...(renewalHorizonDays === undefined ? {} : { renewalHorizonDays }),
    }),
  ).plans;
  expect(plans).toHaveLength(1);
  return plans[0] as (typeof plans)[number];
}

/** A one-year reservation of `quantity` m5.large from `start`, $0.5 an hour each. */
const reservation = (id: string, start: number, quantity = 4, end = start + 365 * DAY_MS) =>
  commitment({
    id,
    quantity,
    recurringCost: 0.5 * quantity,
    start: iso(start),
    end: iso(end),
    lockinEnd: iso(end),
  });

const boughtQuantity = (plan: ReturnType<typeof planOwning>) =>
  plan.lineItems.reduce((sum, item) => sum + item.selected_quantity, 0);

describe('owned commitments at the plan time', () => {
  it('counts a reservation bought 2 hours after the window: nothing is bought again', () => {
    // Prepare: 4 reserved from window end + 2 h; the plan is computed an hour later.
    const owned = reservation('ri-after', WINDOW_END + 2 * HOUR_MS);

    // Act
    const result = planOwning([owned], WINDOW_END + 3 * HOUR_MS);

    // Assess: the 4 reserved cover the 4 used in every hour: residual 0, nothing to buy.
    // before_reserved = 4 x $0.5 = $2/h; before_ondemand = residual 0 x $1 = 0.
    const { plan } = result;
    expect(boughtQuantity(result)).toBe(0);
    expect(plan.before_ondemand_cost_hourly).toBe(0);
    expect(plan.before_reserved_cost_hourly).toBeCloseTo(2, 12);
  });

  it('counts a savings plan bought after the window over every hour of it', () => {
    // Prepare: $1/h of a compute plan at 50% off covers $1 / (1 x 0.5) = 2 instances each hour.
    const rates = [{ discount: 0.5 }];
    const spend = offer({ id: 'sp', contractType: 'compute_plans', scope: { kind: 'spend', rates } });
    const owned = commitment({
      id: 'sp-after',
      contractType: 'compute_plans',
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 1,
      recurringCost: 1,
      start: iso(WINDOW_END + 2 * HOUR_MS),
      end: iso(WINDOW_END + 2 * HOUR_MS + 365 * DAY_MS),
      lockinEnd: iso(WINDOW_END + 2 * HOUR_MS + 365 * DAY_MS),
    });
    const input = engineInput({
      hours: 24,
      streams: [stream({ usage: hourly(24, () => 4) })],
      offers: [offer({ id: 'o1', recurring: 0.5 }), spend],
      commitments: [owned],
      profiles: [HIGH_SAVINGS],
      createdAt: iso(WINDOW_END + 3 * HOUR_MS),
    });

    // Act
    const [only] = computePlans(input).plans;

    // Assess: 4 - 2 = 2 instances left on demand: before_ondemand = 2 x $1 = $2/h, and the
    // reservation buys those 2 (F(k) = 1 > 0.5 for k <= 2).
    expect(only?.plan.before_ondemand_cost_hourly).toBeCloseTo(2, 12);
    expect(only?.lineItems.find((item) => item.offer_id === 'o1')?.selected_quantity).toBe(2);
  });

  it('does not count a reservation that ended before the plan time, even in window hours it was in force', () => {
    // Prepare: 3 reserved over the window's first 2 hours only; the plan is computed after the window.
    const owned = reservation('ri-old', Date.parse('2025-01-01T00:00:00.000Z'), 3, WINDOW_END - 22 * HOUR_MS);

    // Act
    const result = planOwning([owned], WINDOW_END + HOUR_MS);

    // Assess: residual 4 in every hour: 4 bought, before_ondemand = 4 x $1, nothing reserved.
    const { plan } = result;
    expect(boughtQuantity(result)).toBe(4);
    expect(plan.before_ondemand_cost_hourly).toBeCloseTo(4, 12);
    expect(plan.before_reserved_cost_hourly).toBe(0);
  });

  it('does not count a reservation ending within the 30-day renewal horizon: the plan covers what it leaves', () => {
    // Prepare: 4 reserved until 10 days after the plan time (bought 355 days before it ends).
    const planTime = WINDOW_END + HOUR_MS;
    const expiring = reservation('ri-expiring', planTime + 10 * DAY_MS - 365 * DAY_MS);

    // Act
    const plan = planOwning([expiring], planTime);

    // Assess: it ends before the horizon does (10 < 30 days): the 4 it covers are bought again.
    expect(boughtQuantity(plan)).toBe(4);
    expect(plan.plan.before_reserved_cost_hourly).toBe(0);
  });

  it('counts the same reservation when the horizon is shorter than what is left of it', () => {
    // Prepare: as above, 10 days left, but a 7-day horizon; and a 30-day horizon with 31 days left.
    const planTime = WINDOW_END + HOUR_MS;
    const tenDaysLeft = reservation('ri-10', planTime + 10 * DAY_MS - 365 * DAY_MS);
    const thirtyOneDaysLeft = reservation('ri-31', planTime + 31 * DAY_MS - 365 * DAY_MS);

    // Act
    const sevenDayHorizon = planOwning([tenDaysLeft], planTime, 7);
    const thirtyDayHorizon = planOwning([thirtyOneDaysLeft], planTime);

    // Assess: both are in force when the horizon ends: nothing bought.
    expect(boughtQuantity(sevenDayHorizon)).toBe(0);
    expect(boughtQuantity(thirtyDayHorizon)).toBe(0);
  });

  it('counts a renewal queued to start at the end of the one it renews: nothing is bought a third time', () => {
    // Prepare: the old 4 end in 10 days; 4 more are queued from that instant.
    const planTime = WINDOW_END + HOUR_MS;
    const oldEnd = planTime + 10 * DAY_MS;
    const expiring = reservation('ri-old', oldEnd - 365 * DAY_MS);
    const queued = reservation('ri-renewal', oldEnd);

    // Act
    const plan = planOwning([expiring, queued], planTime);

    // Assess: the queued 4 are in force when the horizon ends and cover the 4 used.
    expect(boughtQuantity(plan)).toBe(0);
  });
});
