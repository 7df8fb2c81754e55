/**
 * Layers (docs/plan-engine.md, Layers): once a pool's chosen offer takes its quantity, the pool's
 * offers are considered again on what it leaves, so a plan buys every layer worth buying at once
 * and the next plan buys nothing.
 *
 * The fleet: one Windows m5.large at $1 an instance-hour, running 3, 1, 2, 2, 2, 1 instances in
 * turn over a 48-hour window (8 rounds of the 6 hours). High Savings (hazard 0) values a unit
 * covering P on-demand dollars an hour at V = T (P - r): A = B = T, the term in hours.
 */
import { describe, expect, it } from 'vitest';
import { resourceMatchesForWindow } from '../../../shared/domain/engine/matches/window-matches';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { Offer } from '../../../shared/domain/engine/shapes/model';
import { selectedLineItems } from '../../../shared/domain/purchases/purchase-record';
import { hourly, stream } from './builders';
import { boughtCommitments, catalogOffer, planInput, WINDOW_HOURS } from './fleet-purchases';

const PATTERN = [3, 1, 2, 2, 2, 1];
const STREAMS = [
  stream({
    resourceId: 'r-0',
    accountId: 'a',
    instanceType: 'm5.large',
    operatingSystem: 'Windows',
    ondemandPrice: 1,
    usage: hourly(WINDOW_HOURS, (hour) => PATTERN[hour % PATTERN.length] ?? 0),
  }),
];

function highSavings(offers: Offer[]) {
  const result = computePlans(planInput(STREAMS, offers, []));
  const entry = result.plans.find(({ profile }) => profile.name === 'High Savings');
  if (!entry) throw new Error('no High Savings plan');
  return entry;
}

/** The plan computed again, at the same time, once `entry`'s selected lines are owned. */
function boughtAndPlannedAgain(offers: Offer[], entry: ReturnType<typeof highSavings>) {
  const bought = boughtCommitments(entry.plan.id, entry.lineItems, offers);
  const again = computePlans({ ...planInput(STREAMS, offers, bought), profiles: [entry.profile] });
  return again.plans.flatMap(({ lineItems }) => selectedLineItems(lineItems));
}

describe('a plan with several offers for the same usage', () => {
  it('buys both savings-plan layers at once: three-year at 25% off below, one-year at 40% off above', () => {
    // Prepare: Compute Savings Plans, no upfront; a commitment dollar costs r = 1.
    const threeYear = catalogOffer('spend', 0, 0.75, 0, 26280);
    const oneYear = catalogOffer('spend', 1, 0.6, 0, 8760);
    const offers = [threeYear, oneYear];

    // Act
    const entry = highSavings(offers);
    const lines = selectedLineItems(entry.lineItems);
    const matches = resourceMatchesForWindow(planInput(STREAMS, offers, []), entry.lineItems, {
      start: 0,
      end: WINDOW_HOURS,
    });

    // Assess
    // Alone, the three-year plan's levels are 0.75 x usage: the first $0.75/h covers one instance
    // every hour, P = 1 / 0.75 = 4/3 > 1; the next covers one 4 hours in 6, P = 4/6 x 4/3 = 8/9 < 1.
    // So $0.75/h, W = 26280 x (1 - 0.75) = 6570. The one-year plan alone: $1.2/h covers
    // min(u, 2), (2 + 1 + 2 + 2 + 2 + 1) / 6 = 5/3 $/h, W = 8760 x (5/3 - 1.2) = 4088: the
    // three-year plan is the bottom layer. What it leaves is 2, 0, 1, 1, 1, 0 instances: $0.6/h of
    // the one-year plan covers one of them 4 hours in 6, P = 4/6 / 0.6 = 10/9 > 1, covered 2/3 $/h,
    // W = 8760 x (2/3 - 0.6) = 584 > 0; its next $0.6/h covers 1 hour in 6, P = 5/18 < 1.
    expect(lines.map((item) => [item.offer_id, item.layer, item.selected_commitment])).toEqual([
      [threeYear.id, 0, 0.75],
      [oneYear.id, 1, 0.6],
    ]);
    const [bottom, top] = lines;
    expect(bottom?.covered_ondemand_cost).toBeCloseTo(1, 12);
    expect(bottom?.savings).toBeCloseTo(0.25, 12);
    expect(top?.covered_ondemand_cost).toBeCloseTo(2 / 3, 12);
    // 2/3 - 0.6 = 1/15 $/h on top of the bottom layer's 0.25.
    expect(top?.savings).toBeCloseTo(1 / 15, 12);
    expect(entry.plan.savings_hourly).toBeCloseTo(0.25 + 1 / 15, 12);
    expect(matches).toEqual(Array.from(entry.resourceMatches));

    // Owning both leaves 1, 0, 0, 0, 0, 0 instances: nothing is worth buying (the next dollar of
    // either plan covers an instance 1 hour in 6).
    expect(boughtAndPlannedAgain(offers, entry)).toEqual([]);
  });

  it('buys both reservation layers at once, and the matches replay them in their order', () => {
    // Prepare: Windows m5.large reservations, no upfront: three years at $0.75 an hour, one at $0.6.
    const threeYear = catalogOffer('windows-m5', 0, 0.75, 0, 26280);
    const oneYear = catalogOffer('windows-m5', 1, 0.6, 0, 8760);
    const offers = [threeYear, oneYear];

    // Act
    const entry = highSavings(offers);
    const lines = selectedLineItems(entry.lineItems);
    const matches = resourceMatchesForWindow(planInput(STREAMS, offers, []), entry.lineItems, {
      start: 0,
      end: WINDOW_HOURS,
    });

    // Assess
    // The k-th instance runs F(k) of the hours: F(1) = 1, F(2) = 4/6, F(3) = 1/6. Alone, the
    // three-year reservation buys 1 (0.75 < 1, 0.75 > 4/6): W = 26280 x 0.25 = 6570; the one-year
    // buys 2 (0.6 < 4/6): W = 8760 x (1 + 4/6 - 1.2) = 4088. Three years below; on what it leaves,
    // F(1) = 4/6 > 0.6: one one-year reservation, covering 4/6 $/h.
    expect(lines.map((item) => [item.offer_id, item.layer, item.selected_quantity])).toEqual([
      [threeYear.id, 0, 1],
      [oneYear.id, 1, 1],
    ]);
    expect(lines[1]?.covered_ondemand_cost).toBeCloseTo(4 / 6, 12);
    // Before it: what the bottom layer left, (2 + 0 + 1 + 1 + 1 + 0) / 6 = 5/6 $/h.
    expect(lines[1]?.before_ondemand_cost).toBeCloseTo(5 / 6, 12);
    expect(matches).toEqual(Array.from(entry.resourceMatches));
    expect(boughtAndPlannedAgain(offers, entry)).toEqual([]);
  });
});
