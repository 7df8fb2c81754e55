/**
 * New lines and owned savings plans (docs/plan-engine.md, New lines and owned savings plans): the
 * provider bills reservations before savings plans, and EC2 Instance Savings Plans before Compute
 * Savings Plans, so a new line takes only what the owned savings plans billed after it leave.
 * Known answers worked by hand on always-on fleets priced as the bundled catalog prices them
 * (us-east-1, Linux, Shared), planned with High Savings (no hazard) and then bought the way the
 * processor records purchases; the chart of the days after shows every owned plan wholly used.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { commitmentUses } from '../../../shared/domain/engine/chart/chart';
import { computePlans, type ProfilePlan } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment, UsageStream } from '../../../shared/domain/engine/shapes/model';
import { handCompletionOf } from '../../../shared/domain/purchases/hand-completion';
import { commitmentOf, purchaseRecordsOf } from '../../../shared/domain/purchases/purchase-orders';
import { commitment, engineInput, HIGH_SAVINGS, hourly, stream } from './builders';

const catalog = loadCatalog();
const HOURS = 24;
const PLAN_TIME = '2025-02-01T00:00:00.000Z';
/** A one-year term around the window (2025-01-01) and the plan's time (2025-02-01). */
const TERM = {
  start: '2024-09-01T00:00:00.000Z',
  end: '2025-09-01T00:00:00.000Z',
  lockinEnd: '2025-09-01T00:00:00.000Z',
} as const;

const alwaysOn = (resourceId: string, instanceType: string, ondemandPrice: number) =>
  stream({
    resourceId,
    instanceType,
    operatingSystem: 'Linux',
    ondemandPrice,
    usage: hourly(HOURS, () => 1),
  });

/** A one-year, no-upfront savings plan of `perHour` dollars an hour (an instance plan when `family`). */
const ownedPlan = (id: string, perHour: number, family?: string): ExistingCommitment =>
  commitment({
    id,
    contractType: family ? 'instance_plans' : 'compute_plans',
    instanceType: null,
    quantity: 0,
    hourlyCommitment: perHour,
    recurringCost: perHour,
    ...(family ? { instanceFamily: family } : {}),
    ...TERM,
  });

function highSavings(streams: readonly UsageStream[], owned: readonly ExistingCommitment[]): ProfilePlan {
  const input = engineInput({
    hours: HOURS,
    streams: [...streams],
    commitments: [...owned],
    offers: catalog.offers('aws'),
    profiles: [HIGH_SAVINGS],
    createdAt: PLAN_TIME,
  });
  return computePlans(input).plans[0] as ProfilePlan;
}

/** The plan's selected lines, bought at its time as the processor records them. */
function bought({ plan, lineItems }: ProfilePlan): ExistingCommitment[] {
  const records = purchaseRecordsOf(
    { orgId: 'org', planId: plan.id, provider: 'aws', lineItems },
    catalog,
    (planId, line) => `${planId}:${line}`,
    PLAN_TIME,
  );
  return records.map((record) => {
    const offer = catalog.offerById(record.offerId);
    if (!offer) throw new Error(`no offer ${record.offerId}`);
    const completion = handCompletionOf(record, offer, catalog, record.quantity, `ref-${record.id}`);
    return commitmentOf({ ...record, ...completion, status: 'completed', completedAt: PLAN_TIME }, offer);
  });
}

/** Per owned commitment: its utilization (used cost / cost) in the chart of the two days after the plan. */
function chartedUtilization(
  streams: readonly UsageStream[],
  commitments: readonly ExistingCommitment[],
  owned: readonly ExistingCommitment[],
): number[] {
  const days = commitmentUses({
    window: { start: '2025-01-01T00:00:00.000Z', hours: HOURS },
    streams,
    commitments,
    offers: catalog.offers('aws'),
    startDate: '2025-02-02',
    endDate: '2025-02-03',
    today: '2025-02-02',
  });
  return owned.map((entry) => {
    let used = 0;
    let cost = 0;
    for (const { uses } of days) {
      const use = uses.find((each) => each.commitment === entry);
      used += use?.usedCost ?? 0;
      cost += use?.cost ?? 0;
    }
    return used / cost;
  });
}

const contractOf = (offerId: string) => catalog.offerById(offerId)?.contractType;
const reservationLines = (plan: ProfilePlan) =>
  plan.lineItems.filter((item) => (contractOf(item.offer_id) ?? '').endsWith('_ris'));

describe('a new reservation takes only what owned savings plans leave', () => {
  it('buys an instance plan, not a reservation displacing an owned Compute Savings Plan, for one m5.24xlarge', () => {
    // Prepare: one m5.24xlarge (192 normalized units, the only size: the group's step) at 4.608 an
    // hour. The org owns a one-year, no-upfront Compute Savings Plan of 1.3437 an hour: m5 Linux
    // is 27.1% off, so it covers 1.3437 / 0.729 = 1.843210 of on-demand usage, 40% of the
    // instance; 4.608 - 1.843210 = 2.764790 is left on demand.
    // Before: High Savings bought a three-year All Upfront reservation of 192 units (234.62784
    // upfront a unit: 45,048.55, 1.714200 an hour), "covering" the 60% left: it saved
    // 2.764790 - 1.714200 = 1.050590 an hour, and once bought it is billed first, covers the whole
    // instance and leaves the owned plan nothing to cover (wholly unused).
    // Now: a reservation may take only the 115.2 units the owned plan leaves: less than one step
    // of 192, so none. The three-year All Upfront EC2 Instance Savings Plan for m5 (62.8% off)
    // covers the 2.764790 left for 2.764790 x 0.372 = 1.028502 an hour, saving
    // 2.764790 x 0.628 = 1.736288 an hour; billed before the owned plan, it leaves it 1.843210 of
    // the instance: the owned plan stays wholly used.
    const streams = [alwaysOn('big', 'm5.24xlarge', 4.608)];
    const owned = [ownedPlan('compute', 1.3437)];

    // Act
    const plan = highSavings(streams, owned);

    // Assess
    expect(reservationLines(plan)).toEqual([]);
    expect(plan.lineItems).toHaveLength(1);
    const line = plan.lineItems[0];
    expect(contractOf(line?.offer_id ?? '')).toBe('instance_plans');
    expect(line?.selected_commitment).toBeCloseTo((4.608 - 1.3437 / 0.729) * 0.372, 9);
    expect(line?.savings).toBeCloseTo((4.608 - 1.3437 / 0.729) * 0.628, 9);
    expect(chartedUtilization(streams, [...owned, ...bought(plan)], owned)[0]).toBeCloseTo(1, 9);
  });

  it('covers what an owned m5 instance plan leaves of an m5.large with an instance plan, and reserves the r5', () => {
    // Prepare: an m5.large (0.096, 4 units) and an r5.large (0.126, 4 units of r5) run every hour.
    // The org owns a one-year, no-upfront EC2 Instance Savings Plan for m5 of 0.03 an hour: m5
    // Linux is 37.5% off, so it covers 0.03 / 0.625 = 0.048: half the m5.large (2 units). It
    // cannot cover r5.
    // Before: High Savings reserved 4 m5 units (one m5.large, the smallest size) for the 2 left;
    // billed first, the reservation covers the whole m5.large and the owned plan nothing.
    // Now: the m5 group's room is 2 units, under a step of 4: no m5 reservation. The r5.large,
    // which no owned plan covers, is reserved as before (its three-year All Upfront reservation:
    // 4 units). The 0.048 of m5 left goes to the three-year All Upfront m5 instance plan (62.8%
    // off): 0.048 x 0.372 = 0.017856 an hour, saving 0.048 x 0.628 = 0.030144.
    const streams = [alwaysOn('m5', 'm5.large', 0.096), alwaysOn('r5', 'r5.large', 0.126)];
    const owned = [ownedPlan('m5-plan', 0.03, 'm5')];

    // Act
    const plan = highSavings(streams, owned);

    // Assess
    const reserved = reservationLines(plan);
    expect(reserved.map((item) => catalog.offerById(item.offer_id)?.scope)).toEqual([
      expect.objectContaining({ kind: 'family', family: 'r5' }),
    ]);
    expect(reserved[0]?.selected_quantity).toBe(4);
    const plans = plan.lineItems.filter((item) => contractOf(item.offer_id) === 'instance_plans');
    expect(plans).toHaveLength(1);
    expect(plans[0]?.selected_commitment).toBeCloseTo(0.048 * 0.372, 12);
    expect(plans[0]?.savings).toBeCloseTo(0.048 * 0.628, 12);
    expect(chartedUtilization(streams, [...owned, ...bought(plan)], owned)[0]).toBeCloseTo(1, 9);
  });

  it('reserves neither an m5 nor a c5 an owned instance plan and Compute Savings Plan share, and keeps both used', () => {
    // Prepare: an m5.large (0.096) and a c5.large (0.085) run every hour. The org owns, one-year
    // and no-upfront, an EC2 Instance Savings Plan for m5 of 0.03 (37.5% off: it covers
    // 0.03 / 0.625 = 0.048, half the m5.large) and a Compute Savings Plan of 0.05 (27.1% off both
    // m5 and c5 Linux: one tier, so it covers each in proportion to what is left of it: 0.048 of
    // m5 and 0.085 of c5, 0.133 in all, of which it buys 0.05 / 0.729 = 0.068587). On demand is
    // left 0.133 - 0.068587 = 0.064413 an hour, 48.4% of each.
    // Before: a c5 reservation of 4 units (one c5.large, three-year All Upfront, 0.031620 an
    // hour) "covered" the 1.94 units left; billed first, it takes the whole c5.large and leaves
    // the Compute Savings Plan only the 0.048 of m5: 0.048 x 0.729 / 0.05 = 70% used.
    // Now: every hour the owned plans cover part of each group, leaving 48.4% of a step: no
    // reservation. The 0.064413 left goes to the three-year All Upfront Compute Savings Plan (55%
    // off m5 and c5): 0.064413 x 0.45 = 0.028986 an hour, saving 0.064413 x 0.55 = 0.035427. Its
    // rate table is not the owned plan's; whichever is billed first, the two cover 0.133 of the
    // 0.133 eligible, so both owned plans stay wholly used.
    const streams = [alwaysOn('m5', 'm5.large', 0.096), alwaysOn('c5', 'c5.large', 0.085)];
    const owned = [ownedPlan('m5-plan', 0.03, 'm5'), ownedPlan('compute', 0.05)];
    const left = 0.133 - 0.05 / 0.729;

    // Act
    const plan = highSavings(streams, owned);

    // Assess
    expect(reservationLines(plan)).toEqual([]);
    expect(plan.lineItems).toHaveLength(1);
    const line = plan.lineItems[0];
    expect(contractOf(line?.offer_id ?? '')).toBe('compute_plans');
    expect(line?.selected_commitment).toBeCloseTo(left * 0.45, 12);
    expect(line?.savings).toBeCloseTo(left * 0.55, 12);
    const charted = chartedUtilization(streams, [...owned, ...bought(plan)], owned);
    expect(charted[0]).toBeCloseTo(1, 9);
    expect(charted[1]).toBeCloseTo(1, 9);
  });
});
