/**
 * Line figures worked by hand for the three kinds of line (docs/plan-engine.md, Figures): a
 * standard reservation, a savings plan and a 30-day guaranteed lease of a 3-year offer. Each case
 * writes its arithmetic next to the numbers it checks. Months of a term are T / 730, the 730 hours
 * a month that turn every hourly figure into a monthly one.
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { engineInput, HIGH_SAVINGS, hourly, ONE_YEAR, offer, stream } from './builders';

const THREE_YEARS = 3 * ONE_YEAR;

function onlyPlan(input: Parameters<typeof computePlans>[0]) {
  const plans = computePlans(input).plans;
  expect(plans).toHaveLength(1);
  const entry = plans[0] as (typeof plans)[number];
  expect(entry.lineItems).toHaveLength(1);
  return { plan: entry.plan, item: entry.lineItems[0] as (typeof entry.lineItems)[number] };
}

describe('line figures worked by hand', () => {
  it('gives a standard partial-upfront reservation its term cost, discount and break-even', () => {
    // Prepare: 4 instances at 1 $/h on demand all the time; a one-year offer at 0.3 x 8760 = 2628
    // upfront and 0.25 $/h: r = 2628 / 8760 + 0.25 = 0.55 $/h. No fee.
    const { plan, item } = onlyPlan(
      engineInput({
        hours: 10,
        streams: [stream({ usage: hourly(10, () => 4) })],
        offers: [
          offer({ id: 'ri', upfront: 0.3 * ONE_YEAR, recurring: 0.25, paymentOption: 'Partial Upfront' }),
        ],
        profiles: [HIGH_SAVINGS],
      }),
    );

    // Assess: q = 4, covered 4 $/h, amortized 4 x 0.55 = 2.2 $/h, fee 0.
    expect(item.selected_quantity).toBe(4);
    expect(item.covered_ondemand_cost).toBeCloseTo(4, 12);
    expect(item.after_amortized_cost).toBeCloseTo(2.2, 12);
    expect(item.fee).toBe(0);
    // monthly_cost = 2.2 x 730 = 1606; 12 months of 730 hours: total_cost = 1606 x 12 = 19272
    // = 4 x (2628 + 0.25 x 8760), what the term's payments add up to.
    expect(item.monthly_cost).toBeCloseTo(1606, 9);
    expect(item.total_cost).toBeCloseTo(19272, 6);
    // discount_rate = 100 (1 - 0.55 / 1) = 45.
    expect(item.discount_rate).toBeCloseTo(45, 9);
    // Walking away after h hours leaves (4 - 0) h - 10512 - 4 x 0.25 x max(h, 8760); >= 0 from
    // h = (10512 + 8760) / 4 = 4818 (inside the term: the lock-in is the term).
    expect(item.breakeven_hours).toBeCloseTo(4818, 6);
    expect(plan.breakeven_hours).toBeCloseTo(4818, 6);
  });

  it('gives a savings plan its term cost, the discount of the usage covered and break-even', () => {
    // Prepare: 3 m5.large at 1 $/h all the time; a one-year no-upfront Compute Savings Plan
    // saving 40% on m5: covering an hour takes 3 x 1 x 0.6 = 1.8 $ of commitment, r = 1 per $.
    const { item } = onlyPlan(
      engineInput({
        hours: 10,
        streams: [stream({ usage: hourly(10, () => 3) })],
        offers: [
          offer({
            id: 'sp',
            contractType: 'compute_plans',
            scope: { kind: 'spend', rates: [{ family: 'm5', discount: 0.4 }] },
            recurring: 1,
            planType: 'ComputeSavingsPlans',
          }),
        ],
        profiles: [HIGH_SAVINGS],
      }),
    );

    // Assess: 1.8 $/h committed covers 3 $/h of on-demand usage.
    expect(item.selected_commitment).toBeCloseTo(1.8, 12);
    expect(item.covered_ondemand_cost).toBeCloseTo(3, 12);
    // monthly_cost = 1.8 x 730 = 1314; total_cost = 1314 x 12 = 15768 = 1.8 x 8760.
    expect(item.monthly_cost).toBeCloseTo(1314, 9);
    expect(item.total_cost).toBeCloseTo(15768, 6);
    // p = 3 $ covered / 1.8 $ of commitment used = 1/0.6 per commitment $: 100 (1 - 0.6) = 40.
    expect(item.discount_rate).toBeCloseTo(40, 9);
    // No upfront, lock-in = term: 3 h >= 1.8 x 8760 from h = 15768 / 3 = 5256.
    expect(item.breakeven_hours).toBeCloseTo(5256, 6);
  });

  it('puts the fee of a 30-day lease in its costs and discount, and breaks even within its lock-in', () => {
    // Prepare: 2 instances at 1 $/h all the time; a 30-day guaranteed lease of a 3-year
    // no-upfront offer: 0.6 $/h a unit for up to 26280 hours, given back after 720, and a fee of
    // 30% of the gross savings.
    const { plan, item } = onlyPlan(
      engineInput({
        hours: 10,
        streams: [stream({ usage: hourly(10, () => 2) })],
        offers: [
          offer({
            id: 'lease',
            contractType: 'leased_ris',
            term: 'thirty_day_gris',
            termHours: THREE_YEARS,
            lockinHours: 720,
            recurring: 0.6,
            feeRate: 0.3,
          }),
        ],
        profiles: [HIGH_SAVINGS],
      }),
    );

    // Assess: q = 2, covered 2 $/h, amortized 1.2 $/h, fee 0.3 x (2 - 1.2) = 0.24 $/h.
    expect(item.selected_quantity).toBe(2);
    expect(item.fee).toBeCloseTo(0.24, 12);
    expect(item.savings).toBeCloseTo(0.56, 12);
    // monthly_cost = (1.2 + 0.24) x 730 = 1051.2; the term is 26280 / 730 = 36 months:
    // total_cost = 1051.2 x 36 = 37843.2 = (1.2 + 0.24) x 26280, fee included.
    expect(item.monthly_cost).toBeCloseTo(1051.2, 9);
    expect(item.total_cost).toBeCloseTo(37843.2, 6);
    expect(item.total_savings).toBeCloseTo(2 * THREE_YEARS - 37843.2, 6);
    // Per unit: 0.6 $/h plus the fee 0.3 x (1 - 0.6) = 0.12: 100 (1 - 0.72 / 1) = 28.
    expect(item.discount_rate).toBeCloseTo(28, 9);
    // Walking away after h <= 720 hours: (2 - 0.24) h against 1.2 x 720 = 864 owed for the
    // lock-in: h = 864 / 1.76 = 490.909..., inside the 720 hours of lock-in.
    expect(item.breakeven_hours).toBeCloseTo(864 / 1.76, 9);
    expect(item.breakeven_hours).toBeLessThan(720);
    expect(plan.breakeven_hours).toBeCloseTo(864 / 1.76, 9);
    expect(plan.minimum_commitment_cost).toBeCloseTo(864, 9);
  });

  it('breaks an upfront lease even after its lock-in, when the upfront takes longer to earn back', () => {
    // Prepare: as above, but 0.2 x 26280 = 5256 upfront and 0.4 $/h a unit (r still 0.6).
    const { item } = onlyPlan(
      engineInput({
        hours: 10,
        streams: [stream({ usage: hourly(10, () => 2) })],
        offers: [
          offer({
            id: 'lease',
            contractType: 'leased_ris',
            term: 'thirty_day_gris',
            paymentOption: 'Partial Upfront',
            termHours: THREE_YEARS,
            lockinHours: 720,
            upfront: 0.2 * THREE_YEARS,
            recurring: 0.4,
            feeRate: 0.3,
          }),
        ],
        profiles: [HIGH_SAVINGS],
      }),
    );

    // Assess: U = 2 x 5256 = 10512, R = 0.8 $/h, covered - fee = 1.76 $/h. Within the lock-in
    // 1.76 h >= 10512 + 0.8 x 720 = 11088 needs h = 6300 > 720: not there. After it,
    // (1.76 - 0.8) h >= 10512 from h = 10950.
    expect(item.breakeven_hours).toBeCloseTo(10950, 6);
    // total_cost = 10512 + (0.8 + 0.24) x 26280 = 37843.2, the same as the no-upfront lease.
    expect(item.total_cost).toBeCloseTo(37843.2, 6);
  });
});
