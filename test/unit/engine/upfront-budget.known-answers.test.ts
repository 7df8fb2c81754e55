/**
 * Plans within the org's upfront cap (docs/plan-engine.md, The upfront cap). The fleet: 3 Windows
 * m5.large always on at $1 an instance-hour. The catalog sells one-year reservations of it three
 * ways: All Upfront $3,504 (r = 3,504 / 8,760 = $0.40/h), Partial Upfront $1,752 and $0.25/h
 * (r = $0.45/h), No Upfront $0.50/h. Same term and lock-in, so every profile prefers the lowest r:
 * 3 All Upfront units, $10,512 upfront. Under a budget each plan falls back to the next payment
 * option whose 3 units fit: Partial Upfront ($5,256 upfront), then No Upfront ($0).
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { ValidationError } from '../../../shared/domain/errors';
import { engineInput, hourly, offer, stream } from './builders';

const allUpfront = offer({ id: 'o-all', paymentOption: 'All Upfront', upfront: 3504, recurring: 0 });
const partial = offer({ id: 'o-partial', paymentOption: 'Partial Upfront', upfront: 1752, recurring: 0.25 });
const noUpfront = offer({ id: 'o-none', paymentOption: 'No Upfront', recurring: 0.5 });

function plansWithin(upfrontBudget: number | null | undefined) {
  return computePlans(
    engineInput({
      hours: 24,
      streams: [stream({ usage: hourly(24, () => 3) })],
      offers: [allUpfront, partial, noUpfront],
      ...(upfrontBudget === undefined ? {} : { upfrontBudget }),
    }),
  );
}

const linesOf = (result: ReturnType<typeof plansWithin>) =>
  result.plans.map((entry) =>
    entry.lineItems.map((item) => [item.offer_id, item.selected_quantity, item.upfront_cost]),
  );

describe('plans within the upfront cap', () => {
  it('buys 3 All Upfront units in every plan without a cap, or with one they fit', () => {
    const expected = [[['o-all', 3, 10_512]], [['o-all', 3, 10_512]], [['o-all', 3, 10_512]]];

    expect(linesOf(plansWithin(undefined))).toEqual(expected);
    expect(linesOf(plansWithin(null))).toEqual(expected);
    expect(linesOf(plansWithin(10_512))).toEqual(expected);
  });

  it('falls back to Partial Upfront under a budget of $6,000: $5,256 upfront fits, saving 3 x $0.55 an hour', () => {
    const result = plansWithin(6_000);

    expect(linesOf(result)).toEqual([
      [['o-partial', 3, 5_256]],
      [['o-partial', 3, 5_256]],
      [['o-partial', 3, 5_256]],
    ]);
    for (const { plan } of result.plans) expect(plan.savings_hourly).toBeCloseTo(3 * 0.55, 12);
    expect(result.purchasePlan?.max_upfront_cost).toBe(5_256);
  });

  it('falls back to No Upfront under $5,000, where Partial Upfront pays $5,256', () => {
    const result = plansWithin(5_000);

    expect(linesOf(result)).toEqual([[['o-none', 3, 0]], [['o-none', 3, 0]], [['o-none', 3, 0]]]);
    expect(result.purchasePlan?.max_upfront_cost).toBe(0);
  });

  it('buys nothing where the org has already paid past its cap in the last 30 days (a negative budget)', () => {
    const result = plansWithin(-1);

    expect(linesOf(result)).toEqual([[], [], []]);
    expect(result.recommendedPlanId).toBeNull();
  });

  it('refuses a budget that is not a finite number, naming the field', () => {
    const act = () => plansWithin(Number.NaN);

    expect(act).toThrow(ValidationError);
    try {
      act();
    } catch (error) {
      expect(Object.keys((error as ValidationError).fields)).toEqual(['upfrontBudget']);
    }
  });
});
