/**
 * Buying a plan beside owned savings plans (docs/plan-engine.md, New lines and owned savings
 * plans), over random Linux m5/r5 fleets with owned reservations, an owned EC2 Instance Savings
 * Plan for m5 and an owned Compute Savings Plan, and catalogs of reservations and savings plans of
 * both kinds:
 *
 * - no plan lowers the utilization of any owned commitment, reservations and savings plans, as a
 *   naive hour loop of the provider's billing rules computes it (owned-plans-fleets.ts
 *   billedUtilization), and the engine's chart of the window with the plan's lines applied says
 *   the same;
 * - buying a plan is a fixed point: computed again with its lines owned, nothing is left to buy.
 *
 * Before the rule, shrunk counterexample of the first: one m5.large always on ($0.5 an hour), an
 * owned $0.05/h EC2 Instance Savings Plan for m5 (35% off: it covers 0.05 / 0.65 = 0.077 of it)
 * and a one-year reservation at 40% of on demand ($0.2 for the m5.large's 4 units): Recommended
 * reserved the 4 units for the 3.38 left; billed first, the reservation took the whole instance
 * and the owned plan went from wholly used to unused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitmentUses } from '../../../shared/domain/engine/chart/chart';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment } from '../../../shared/domain/engine/shapes/model';
import { selectedLineItems } from '../../../shared/domain/purchases/purchase-record';
import { WINDOW_START } from './builders';
import {
  billedUtilization,
  bought,
  fleetInput,
  HOURS,
  type OwnedPlansFleet,
  ownedPlansFleetArbitrary,
} from './owned-plans-fleets';

/** The engine's chart of the window's two days, every commitment applying in all of its hours. */
function chartedUtilization(fleet: OwnedPlansFleet, commitments: readonly ExistingCommitment[]) {
  const inWindow = commitments.map((entry) => ({ ...entry, start: WINDOW_START }));
  const days = commitmentUses({
    window: { start: WINDOW_START, hours: HOURS },
    streams: fleet.streams,
    commitments: inWindow,
    offers: fleet.offers,
    startDate: '2025-01-01',
    endDate: '2025-01-02',
    today: '2025-01-03',
  });
  return fleet.owned.map((_entry, k) => {
    let used = 0;
    let cost = 0;
    for (const { uses } of days) {
      const use = uses.find((each) => each.commitment === inWindow[k]);
      used += use?.usedCost ?? 0;
      cost += use?.cost ?? 0;
    }
    return cost > 0 ? used / cost : 0;
  });
}

describe('buying a plan beside owned savings plans', () => {
  it('never lowers the utilization of an owned commitment, by the billing rules and in the chart', () => {
    fc.assert(
      fc.property(ownedPlansFleetArbitrary(), (fleet) => {
        // Prepare
        const first = computePlans(fleetInput(fleet, fleet.owned));
        const before = billedUtilization(fleet.streams, fleet.owned, fleet.discounts);
        expect(chartedUtilization(fleet, fleet.owned).map((each) => Number(each.toFixed(9)))).toEqual(
          fleet.owned.map((entry) => Number((before.get(entry) ?? 0).toFixed(9))),
        );

        for (const { plan, lineItems, profile } of first.plans) {
          // Act
          const lines = bought(plan.id, lineItems, fleet.offers);
          const all = [...fleet.owned, ...lines];
          const after = billedUtilization(fleet.streams, all, fleet.discounts);

          // Assess: by hand, no owned commitment is used less, and the chart says what the hand does.
          const charted = chartedUtilization({ ...fleet }, all);
          fleet.owned.forEach((entry, k) => {
            const label = `${profile.name}: ${entry.id} after ${lines.map((line) => `${line.contractType} ${line.quantity || line.hourlyCommitment}`).join(', ')}`;
            expect(after.get(entry), label).toBeGreaterThanOrEqual((before.get(entry) ?? 0) - 1e-9);
            expect(Math.abs((charted[k] ?? 0) - (after.get(entry) ?? 0)), label).toBeLessThan(1e-9);
          });
        }
      }),
      { numRuns: 80 },
    );
  });

  it('leaves nothing to buy once a plan is bought, with owned Compute and EC2 Instance Savings Plans', () => {
    fc.assert(
      fc.property(ownedPlansFleetArbitrary([0.15]), (fleet) => {
        // Act
        const first = computePlans(fleetInput(fleet, fleet.owned));
        for (const { plan, lineItems, profile } of first.plans) {
          const lines = bought(plan.id, lineItems, fleet.offers);
          const again = computePlans({
            ...fleetInput(fleet, [...fleet.owned, ...lines]),
            profiles: [profile],
          });

          // Assess
          const left = again.plans.flatMap((each) => selectedLineItems(each.lineItems));
          expect(
            left.map((item) => `${item.offer_id} x ${item.selected_quantity || item.selected_commitment}`),
            `${profile.name} after buying ${lines.length} commitments`,
          ).toEqual([]);
        }
      }),
      { numRuns: 80 },
    );
  });
});
