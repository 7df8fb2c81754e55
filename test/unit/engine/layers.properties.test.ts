/**
 * Layers (docs/plan-engine.md, Layers) replayed by the resource-matches endpoint: over random fleets,
 * portfolios and catalogs with several offers for the same usage, the matches of every profile's
 * line items over the window are the plan's own, to the last bit, and those of two sub-ranges add
 * up to them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resourceMatchesForWindow } from '../../../shared/domain/engine/matches/window-matches';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import {
  offersArbitrary,
  ownedArbitrary,
  planInput,
  streamsArbitrary,
  WINDOW_HOURS,
} from './fleet-purchases';

const fleetArbitrary = fc.record({
  streams: streamsArbitrary(['windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge']),
  offers: offersArbitrary(['windows-m5', 'windows-r5', 'linux-m5', 'spend']),
  owned: ownedArbitrary,
  split: fc.integer({ min: 0, max: WINDOW_HOURS }),
});

describe('the matches of a plan with layers', () => {
  it('replay every layer as the plan applied it', () => {
    let layered = 0;
    fc.assert(
      fc.property(fleetArbitrary, ({ streams, offers, owned, split }) => {
        // Prepare
        const input = planInput(streams, offers, owned);

        for (const { lineItems, resourceMatches } of computePlans(input).plans) {
          // Act
          const whole = resourceMatchesForWindow(input, lineItems, { start: 0, end: WINDOW_HOURS });
          const head = resourceMatchesForWindow(input, lineItems, { start: 0, end: split });
          const tail = resourceMatchesForWindow(input, lineItems, { start: split, end: WINDOW_HOURS });

          // Assess
          if (lineItems.some((item) => item.layer > 0)) layered++;
          expect(whole).toEqual(Array.from(resourceMatches));
          for (const { lineItemId, match } of whole) {
            const part = (list: typeof whole) =>
              list.find((entry) => entry.lineItemId === lineItemId && entry.match.id === match.id)?.match;
            const covered =
              (part(head)?.after_covered_units ?? 0) * split +
              (part(tail)?.after_covered_units ?? 0) * (WINDOW_HOURS - split);
            expect(covered).toBeCloseTo(match.after_covered_units * WINDOW_HOURS, 9);
          }
        }
      }),
      { numRuns: 200 },
    );
    // The catalogs do stack layers (not a vacuous property).
    expect(layered).toBeGreaterThan(0);
  });
});
