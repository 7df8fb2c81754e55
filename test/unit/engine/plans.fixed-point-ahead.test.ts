/**
 * Buying a plan is a fixed point (docs/plan-engine.md, Layers) also when what was bought is still
 * queued and when the org owns commitments starting after the renewal horizon: over random fleets
 * whose owned reservations may end within the horizon (their renewals split, renewal-split.ts) or
 * start 65 days after the plan (commitments ahead, commitments-ahead.ts), buying every profile's
 * selected lines as purchases that stay `queued` (what the app owns for planning:
 * ordered-commitments.ts `ownedForPlanning`) and computing the plans again at the same time
 * selects nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment } from '../../../shared/domain/engine/shapes/model';
import { ownedForPlanning } from '../../../shared/domain/purchases/ordered-commitments';
import type { PurchaseCatalog } from '../../../shared/domain/purchases/purchase-orders';
import { purchaseRecordsOf } from '../../../shared/domain/purchases/purchase-orders';
import { selectedLineItems } from '../../../shared/domain/purchases/purchase-record';
import { commitment } from './builders';
import {
  at,
  boughtCommitments,
  M5_SIZES,
  offersArbitrary,
  PLAN_TIME,
  planInput,
  streamsArbitrary,
} from './fleet-purchases';

/** Hours from the window's start (the plan's time is hour 50): in force, ending within the horizon, or ahead. */
const SPANS = {
  running: [-24, -24 + 8760],
  ending: [-24, 50 + 240],
  // Starts 65 days after the plan, past the 30-day horizon, for a year or three.
  aheadOneYear: [50 + 65 * 24, 50 + 65 * 24 + 8760],
  aheadThreeYears: [50 + 65 * 24, 50 + 65 * 24 + 26280],
} as const;

const ownedArbitrary = fc
  .array(
    fc.record({
      instanceType: fc.constantFrom('m5.large', 'r5.large', 'm5.xlarge'),
      account: fc.constantFrom('a', 'b'),
      quantity: fc.integer({ min: 1, max: 4 }),
      rate: fc.constantFrom(0.4, 0.6),
      span: fc.constantFrom(...(Object.keys(SPANS) as (keyof typeof SPANS)[])),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((specs) =>
    specs.map(({ instanceType, account, quantity, rate, span }, index): ExistingCommitment => {
      const [start, end] = SPANS[span];
      return commitment({
        // Bought a day before the plan at the latest: before anything the plan buys.
        purchasedAt: at(Math.min(start, 26)),
        id: `owned-${index}`,
        accountId: account,
        instanceType,
        operatingSystem: instanceType === 'm5.xlarge' ? 'Linux' : 'Windows',
        quantity,
        recurringCost: quantity * rate,
        start: at(start),
        end: at(end),
        lockinEnd: at(end),
      });
    }),
  );

const fleetArbitrary = fc.record({
  streams: streamsArbitrary(['windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge']),
  offers: offersArbitrary(['windows-m5', 'windows-r5', 'linux-m5', 'spend']),
  owned: ownedArbitrary,
  queued: fc.boolean(),
});

describe('buying a plan and planning again, with renewals, purchases queued and commitments ahead', () => {
  it('leaves nothing to buy: every profile is a fixed point', () => {
    fc.assert(
      fc.property(fleetArbitrary, ({ streams, offers, owned, queued }) => {
        // Act
        const first = computePlans(planInput(streams, offers, owned));
        for (const { plan, lineItems, profile } of first.plans) {
          const catalog: PurchaseCatalog = {
            offerById: (id) => offers.find((each) => each.id === id),
            pricedInstances: () => M5_SIZES,
          };
          // Ordered and still queued (owned as planned), or bought and recorded as the processor does.
          const bought = queued
            ? ownedForPlanning(
                owned,
                purchaseRecordsOf(
                  { orgId: 'org', planId: plan.id, provider: 'aws', lineItems },
                  catalog,
                  (planId, line) => `${planId}:${line}`,
                  PLAN_TIME,
                ),
                catalog,
              )
            : [...owned, ...boughtCommitments(plan.id, lineItems, offers)];
          const again = computePlans({ ...planInput(streams, offers, bought), profiles: [profile] });

          // Assess
          const left = again.plans.flatMap((each) => selectedLineItems(each.lineItems));
          expect(
            left.map((item) => `${item.offer_id} x ${item.selected_quantity || item.selected_commitment}`),
            `${profile.name} after ${queued ? 'ordering' : 'buying'} ${lineItems.length} lines`,
          ).toEqual([]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
