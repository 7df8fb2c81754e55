/**
 * The identities of docs/plan-engine.md, checked on random inputs: the engine's contract.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resourceMatchesForWindow } from '../../../shared/domain/engine/matches/window-matches';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { closeTo, everyNumber, inputArbitrary } from './random-engine-inputs';

describe('plan identities on random inputs', () => {
  it('gives finite numbers everywhere and fractions in [0, 1]', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        // Act
        const result = computePlans(input);

        // Assess
        everyNumber(result, (path, number) => {
          expect(Number.isFinite(number), path).toBe(true);
        });
        for (const { plan, resourceMatches } of result.plans) {
          expect(plan.commitment_coverage).toBeGreaterThanOrEqual(0);
          expect(plan.commitment_coverage).toBeLessThanOrEqual(1);
          for (const { match } of resourceMatches) {
            expect(match.coverage).toBeGreaterThanOrEqual(0);
            expect(match.coverage).toBeLessThanOrEqual(1);
          }
        }
      }),
    );
  });

  it('sums line items to the plan figures, with savings = before - after and monthly = hourly x 730', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        for (const { plan, lineItems } of computePlans(input).plans) {
          const sum = (pick: (item: (typeof lineItems)[number]) => number) =>
            lineItems.reduce((total, item) => total + pick(item), 0);
          closeTo(
            plan.covered_ondemand_cost_hourly,
            sum((item) => item.covered_ondemand_cost),
          );
          closeTo(
            plan.amortized_cost_hourly,
            sum((item) => item.after_amortized_cost),
          );
          closeTo(
            plan.recurring_cost_hourly,
            sum((item) => item.recurring_cost),
          );
          closeTo(
            plan.fee_hourly,
            sum((item) => item.fee),
          );
          closeTo(
            plan.savings_hourly,
            sum((item) => item.savings),
          );
          closeTo(
            plan.total_savings,
            sum((item) => item.total_savings),
          );
          closeTo(plan.savings_hourly, plan.before_cost_hourly - plan.after_cost_hourly);
          closeTo(
            plan.before_cost_hourly,
            plan.before_ondemand_cost_hourly + plan.before_reserved_cost_hourly,
          );
          closeTo(plan.monthly_savings, plan.savings_hourly * 730);
          closeTo(plan.total_monthly_before_cost, plan.before_cost_hourly * 730);
          for (const item of lineItems) {
            closeTo(item.savings, item.covered_ondemand_cost - item.after_amortized_cost - item.fee);
            closeTo(item.monthly_savings, item.savings * 730);
            expect(item.savings).toBeGreaterThan(0);
            expect(item.fee).toBeGreaterThanOrEqual(0);
          }
        }
      }),
    );
  });

  it('sums resource matches to their line item, and a line item has one match per resource', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        for (const { lineItems, resourceMatches } of computePlans(input).plans) {
          for (const item of lineItems) {
            const matches = Array.from(resourceMatches)
              .filter((entry) => entry.lineItemId === item.id)
              .map((entry) => entry.match);
            const sum = (pick: (match: (typeof matches)[number]) => number) =>
              matches.reduce((total, match) => total + pick(match), 0);
            expect(matches.length).toBeGreaterThan(0);
            expect(new Set(matches.map((match) => match.resource.id)).size).toBe(matches.length);
            closeTo(
              sum((match) => match.covered_ondemand_cost),
              item.covered_ondemand_cost,
            );
            closeTo(
              sum((match) => match.before_ondemand_cost),
              item.before_ondemand_cost,
            );
            closeTo(
              sum((match) => match.before_reserved_cost),
              item.before_reserved_cost,
            );
            closeTo(
              sum((match) => match.average_savings),
              item.savings,
            );
            for (const match of matches) {
              closeTo(match.before_cost - match.after_cost, match.average_savings);
              closeTo(match.after_uncovered_units, match.before_uncovered_units - match.after_covered_units);
              closeTo(match.monthly_after_cost, match.after_cost * 730);
            }
          }
        }
      }),
    );
  });

  it('gives the same matches for the whole window on request, and sub-ranges that add up to it', () => {
    fc.assert(
      fc.property(inputArbitrary, fc.double({ min: 0, max: 1, noNaN: true }), (input, cut) => {
        // Prepare
        const hours = input.window.hours;
        const split = Math.min(hours, Math.max(0, Math.round(cut * hours)));
        // Every profile: each may stack different layers on a pool (docs/plan-engine.md, Layers).
        for (const { lineItems, resourceMatches } of computePlans(input).plans) {
          // Act
          const whole = resourceMatchesForWindow(input, lineItems, { start: 0, end: hours });
          const head = resourceMatchesForWindow(input, lineItems, { start: 0, end: split });
          const tail = resourceMatchesForWindow(input, lineItems, { start: split, end: hours });

          // Assess
          expect(whole).toEqual(Array.from(resourceMatches));
          for (const { lineItemId, match } of whole) {
            const part = (list: typeof whole) =>
              list.find((entry) => entry.lineItemId === lineItemId && entry.match.id === match.id)?.match;
            const weighted = (pick: (m: typeof match) => number) =>
              (part(head) ? pick(part(head) as typeof match) * split : 0) +
              (part(tail) ? pick(part(tail) as typeof match) * (hours - split) : 0);
            closeTo(
              weighted((m) => m.after_covered_units),
              match.after_covered_units * hours,
            );
            closeTo(
              weighted((m) => m.covered_ondemand_cost),
              match.covered_ondemand_cost * hours,
            );
            closeTo(
              weighted((m) => m.total_units),
              match.total_units * hours,
            );
          }
        }
      }),
    );
  });
});
