/**
 * A line item's and its plan's figures worked by hand, lock-in exposure and max_term included. Each case writes its arithmetic next to the numbers it checks.
 */
import { describe, expect, it } from 'vitest';
import { engineInput, HIGH_SAVINGS, instanceScope, ONE_YEAR, offer, stream } from './builders';
import { onlyPlan, TEN_THEN_FOUR } from './only-plan';

describe('figures (docs/plan-engine.md)', () => {
  it('fills a line item and its plan from the formulas', () => {
    // Prepare: q = 10 of an offer with r = 0.3 * 8760 / 8760 + 0.25 = 0.55 (partial upfront), fee 0.2.
    const input = engineInput({
      hours: 10,
      streams: [stream({ usage: TEN_THEN_FOUR })],
      offers: [
        offer({
          id: 'o1',
          upfront: 0.3 * ONE_YEAR,
          recurring: 0.25,
          feeRate: 0.2,
          paymentOption: 'Partial Upfront',
        }),
      ],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { plan, lineItems } = onlyPlan(input);
    const item = lineItems[0];

    // Assess: covered 7.6; amortized 5.5; fee 0.2 * 2.1 = 0.42; savings 2.1 - 0.42 = 1.68.
    expect(item?.selected_quantity).toBe(10);
    expect(item?.covered_ondemand_cost).toBeCloseTo(7.6, 12);
    expect(item?.after_amortized_cost).toBeCloseTo(5.5, 12);
    expect(item?.recurring_cost).toBeCloseTo(2.5, 12);
    expect(item?.upfront_cost).toBeCloseTo(10 * 0.3 * ONE_YEAR, 6);
    expect(item?.fee).toBeCloseTo(0.42, 12);
    expect(item?.savings).toBeCloseTo(1.68, 12);
    expect(item?.monthly_savings).toBeCloseTo(1.68 * 730, 9);
    expect(item?.total_savings).toBeCloseTo(1.68 * ONE_YEAR, 6);
    // monthly_cost = (5.5 + 0.42) x 730 = 4321.6; over the 12 months of the term, total_cost =
    // 4321.6 x 12 = 51859.2 = q (upfront + recurring T) + fee T = 10 (2628 + 2190) + 0.42 x 8760.
    expect(item?.monthly_cost).toBeCloseTo(4321.6, 9);
    expect(item?.total_cost).toBeCloseTo(51859.2, 6);
    // Walking away after h hours: (7.6 - 0.42) h against 26280 upfront + 2.5 $/h owed to the end of
    // the one-year lock-in: h = (26280 + 2.5 x 8760) / 7.18 = 48180 / 7.18.
    expect(item?.breakeven_hours).toBeCloseTo(48180 / 7.18, 6);
    // discount net of the fee = 100 (1 - (0.55 + 0.2 x (1 - 0.55)) / 1) = 36%.
    expect(item?.discount_rate).toBeCloseTo(36, 9);
    expect(item?.after_covered_units).toBeCloseTo(7.6, 12);
    expect(item?.before_ondemand_cost).toBeCloseTo(7.6, 12);
    expect(item?.recommended_commitment).toBe(0);
    expect(item?.contract_term).toBe('one_year');
    expect(item?.payment_option).toBe('Partial Upfront');

    // Plan: before = 7.6 on demand; after = 7.6 - 7.6 + 5.5 + 0.42 = 5.92.
    expect(plan.before_cost_hourly).toBeCloseTo(7.6, 12);
    expect(plan.after_cost_hourly).toBeCloseTo(5.92, 12);
    expect(plan.savings_hourly).toBeCloseTo(1.68, 12);
    expect(plan.upfront_cost_hourly).toBeCloseTo(3, 12);
    expect(plan.total_cost_hourly).toBeCloseTo(5.92, 12);
    expect(plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(plan.minimum_commitment_cost).toBeCloseTo(48180, 6);
    expect(plan.max_term).toBe('one_year');
    expect(plan.total_monthly_before_cost).toBeCloseTo(7.6 * 730, 9);
  });

  it('prices the lock-in exposure of a guaranteed offer at L hours, not T', () => {
    // Prepare: thirty-day lock-in of a one-year no-upfront offer at 0.5/h: minimum = q * 0.5 * 720.
    const input = engineInput({
      hours: 4,
      streams: [stream({ usage: [2, 2, 2, 2] })],
      offers: [
        offer({
          id: 'o1',
          recurring: 0.5,
          lockinHours: 720,
          term: 'thirty_day_gris',
          contractType: 'leased_ris',
        }),
      ],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { plan } = onlyPlan(input);

    // Assess
    expect(plan.minimum_commitment_cost).toBeCloseTo(2 * 0.5 * 720, 9);
    expect(plan.max_term).toBe('thirty_day_gris');
  });

  it('names the longest lock-in as max_term, not the longest billed term', () => {
    // Prepare: a thirty-day guaranteed lease of a 3-year offer (T 26280, L 720) and a plain one-year
    // offer (T = L = 8760), each for a stream of its own; both lines are bought.
    const input = engineInput({
      hours: 4,
      streams: [
        stream({ resourceId: 'a', usage: [2, 2, 2, 2] }),
        stream({ resourceId: 'b', instanceType: 'c5.large', usage: [2, 2, 2, 2] }),
      ],
      offers: [
        offer({
          id: 'leased',
          term: 'thirty_day_gris',
          contractType: 'leased_ris',
          termHours: 3 * ONE_YEAR,
          lockinHours: 720,
        }),
        offer({ id: 'plain', scope: instanceScope({ instanceType: 'c5.large' }) }),
      ],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { plan, lineItems } = onlyPlan(input);

    // Assess: one year locks in longer than thirty days, however long the lease bills.
    expect(lineItems.map((item) => item.contract_term).sort()).toEqual(['one_year', 'thirty_day_gris']);
    expect(plan.max_term).toBe('one_year');
  });
});
