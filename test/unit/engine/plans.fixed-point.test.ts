/**
 * "How it is checked" of owning what a plan buys (docs/plan-engine.md, Time is the plan's): over
 * random fleets and portfolios, buying a plan's selected lines the way the processor records them
 * (purchase records, the completion in the provider's unit, `commitmentOf`) and computing the
 * plans again at the same time gives a plan with nothing left to buy. The catalogs hold several
 * offers for the same usage (fleet-purchases.ts offersArbitrary), so a plan stacks layers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { selectedLineItems } from '../../../shared/domain/purchases/purchase-record';
import {
  boughtCommitments,
  offersArbitrary,
  ownedArbitrary,
  planInput,
  streamsArbitrary,
} from './fleet-purchases';

const fleetArbitrary = fc.record({
  streams: streamsArbitrary(['windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge']),
  offers: offersArbitrary(['windows-m5', 'windows-r5', 'linux-m5', 'spend']),
  owned: ownedArbitrary,
});

describe('buying a plan and planning again', () => {
  it('leaves nothing to buy: every profile is a fixed point', () => {
    fc.assert(
      fc.property(fleetArbitrary, ({ streams, offers, owned }) => {
        // Act
        const first = computePlans(planInput(streams, offers, owned));
        for (const { plan, lineItems, profile } of first.plans) {
          const bought = boughtCommitments(plan.id, lineItems, offers);
          const again = computePlans({
            ...planInput(streams, offers, [...owned, ...bought]),
            profiles: [profile],
          });

          // Assess
          const left = again.plans.flatMap((each) => selectedLineItems(each.lineItems));
          expect(
            left.map((item) => `${item.offer_id} x ${item.selected_quantity || item.selected_commitment}`),
            `${profile.name} after buying ${bought.length} commitments`,
          ).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });
});
