/**
 * Plans worked by hand. Each case writes its arithmetic next to the numbers it checks.
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import {
  commitment,
  engineInput,
  HIGH_SAVINGS,
  hourly,
  instanceScope,
  ONE_YEAR,
  offer,
  stream,
} from './builders';

/** 10 units in 6 hours of 10, 4 units in the other 4: F(k) = 1 for k <= 4, 0.6 for 5 <= k <= 10. */
const TEN_THEN_FOUR = hourly(10, (hour) => (hour < 6 ? 10 : 4));

function onlyPlan(input: Parameters<typeof computePlans>[0]) {
  const plans = computePlans(input).plans;
  expect(plans).toHaveLength(1);
  return plans[0] as (typeof plans)[number];
}

describe('quantities (docs/plan-engine.md)', () => {
  it('commits 10 units when r/p = 0.55 and 4 when r/p = 0.65 (h = 0, no fee)', () => {
    // Prepare
    const planFor = (recurring: number) =>
      onlyPlan(
        engineInput({
          hours: 10,
          streams: [stream({ usage: TEN_THEN_FOUR })],
          offers: [offer({ id: 'o1', recurring })],
          profiles: [HIGH_SAVINGS],
        }),
      );

    // Act
    const cheap = planFor(0.55);
    const dear = planFor(0.65);

    // Assess: covered = mean min(R, q): q = 10 -> 7.6, q = 4 -> 4.
    expect(cheap.lineItems.map((item) => item.selected_quantity)).toEqual([10]);
    expect(cheap.lineItems[0]?.covered_ondemand_cost).toBeCloseTo(7.6, 12);
    expect(cheap.lineItems[0]?.savings).toBeCloseTo(7.6 - 5.5, 12);
    expect(dear.lineItems.map((item) => item.selected_quantity)).toEqual([4]);
    expect(dear.lineItems[0]?.savings).toBeCloseTo(4 - 2.6, 12);
  });

  it('lets a hazard stop the units that are used only part of the time', () => {
    // Prepare: one-year offer, L = T = 8760, r = 0.51, p = 1. With h = 0.03:
    // A = (1 - 0.97^12) / (1 - 0.97^(1/730)) = 7337.67, B = T = 8760, so unit k pays iff
    // F(k) > r B / A = 0.51 * 1.19384 = 0.6089: the units used 60% of the time do not (0.6 < 0.6089).
    const input = (hazard: number) =>
      engineInput({
        hours: 10,
        streams: [stream({ usage: TEN_THEN_FOUR })],
        offers: [offer({ id: 'o1', recurring: 0.51 })],
        profiles: [{ name: 'Recommended', hazard }],
      });

    // Act
    const steady = onlyPlan(input(0));
    const fading = onlyPlan(input(0.03));

    // Assess
    expect(steady.lineItems[0]?.selected_quantity).toBe(10);
    expect(fading.lineItems[0]?.selected_quantity).toBe(4);
  });

  it('counts the fee: it can stop a unit a fee-free offer would buy', () => {
    // Prepare: r = 0.5, h = 0.03, A = 7337.67, B = 8760. For the units used 60% of the time (P = 0.6):
    // without fee V = 0.6 A - 0.5 B = +22.6; with fee_rate 0.5, V = 22.6 - 0.5 * (0.6 - 0.5) * A = -344.3.
    // For the 4 steady units (P = 1): V = A - 0.5 B - 0.5 * 0.5 * A = +1123.3.
    const input = (feeRate: number) =>
      engineInput({
        hours: 10,
        streams: [stream({ usage: TEN_THEN_FOUR })],
        offers: [offer({ id: 'o1', recurring: 0.5, feeRate })],
        profiles: [{ name: 'Recommended', hazard: 0.03 }],
      });

    // Act
    const plain = onlyPlan(input(0));
    const withFee = onlyPlan(input(0.5));

    // Assess: fee = 0.5 * (4 - 4 * 0.5) = 1 per hour; savings = 4 - 2 - 1 = 1.
    expect(plain.lineItems[0]?.selected_quantity).toBe(10);
    expect(withFee.lineItems[0]?.selected_quantity).toBe(4);
    expect(withFee.lineItems[0]?.fee).toBeCloseTo(1, 12);
    expect(withFee.lineItems[0]?.savings).toBeCloseTo(1, 12);
  });

  it('prefers the offer of greatest total value, fee included', () => {
    // Prepare: h = 0, q = 10 for both: W = T * (1 - f) * (7.6 - 10 r):
    // offer a: r = 0.5, fee 0.5 -> T * 0.5 * 2.6 = 1.3 T; offer b: r = 0.55, no fee -> 2.1 T.
    const input = engineInput({
      hours: 10,
      streams: [stream({ usage: TEN_THEN_FOUR })],
      offers: [offer({ id: 'a', recurring: 0.5, feeRate: 0.5 }), offer({ id: 'b', recurring: 0.55 })],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const plan = onlyPlan(input);

    // Assess
    expect(plan.lineItems.map((item) => item.offer_id)).toEqual(['b']);
  });
});

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

describe('savings plans', () => {
  it('covers the highest discount first and stops where one more dollar covers less than a dollar', () => {
    // Prepare: stream a (discount 0.5) runs half the hours, b (discount 0.2) all of them, p = 1.
    // Commitment per hour: a 0.5 $, b 0.8 $; levels 0.5, 0.8, 1.3. Mean covered value:
    //   Cov(0.5) = (2 * 0.5 + 1.25 * 0.5) / 2 = 0.8125, Cov(0.8) = (1 + 1.25 * 0.3 + 1) / 2 = 1.1875,
    //   Cov(1.3) = (2 + 1) / 2 = 1.5. Per dollar: 1.625, 1.25, then 0.625 < r = 1: commit 0.8 $/h.
    const rates = [
      { instanceType: 'c5.large', discount: 0.5 },
      { instanceType: 'r5.large', discount: 0.2 },
    ];
    const input = engineInput({
      hours: 2,
      streams: [
        stream({ resourceId: 'b', instanceType: 'r5.large', usage: [1, 1] }),
        stream({ resourceId: 'a', instanceType: 'c5.large', usage: [1, 0] }),
      ],
      offers: [
        offer({
          id: 'sp',
          contractType: 'compute_plans',
          scope: { kind: 'spend', rates },
          recurring: 1,
          planType: 'ComputeSavingsPlans',
        }),
      ],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { lineItems, resourceMatches } = onlyPlan(input);

    // Assess
    const item = lineItems[0];
    expect(item?.selected_quantity).toBeCloseTo(0.8, 12);
    expect(item?.selected_commitment).toBeCloseTo(0.8, 12);
    expect(item?.covered_ondemand_cost).toBeCloseTo(1.1875, 12);
    expect(item?.savings).toBeCloseTo(1.1875 - 0.8, 12);
    // In hour 0, a takes 0.5 $ (all of it), b the other 0.3 $ = 0.375 units; in hour 1 b takes 0.8 $.
    const covered = Object.fromEntries(
      Array.from(resourceMatches).map(({ match }) => [match.resource.id, match.after_covered_units]),
    );
    expect(covered.a).toBeCloseTo(0.5, 12);
    expect(covered.b).toBeCloseTo((0.375 + 1) / 2, 12);
    // Discount of the covered usage: 1 - 0.8 / 1.1875.
    expect(item?.discount_rate).toBeCloseTo(100 * (1 - 0.8 / 1.1875), 9);
  });
});

describe('AWS size flexibility', () => {
  it('counts m5.large and m5.2xlarge usage in normalization units of one family group', () => {
    // Prepare: 2 m5.large (4 units each) all the time, 1 m5.2xlarge (16 units) half the time:
    // R = 24 units or 8, so F(k) = 1 for k <= 8 and 0.5 for 9..24. Price 0.125 per unit-hour.
    const linux = { operatingSystem: 'Linux', tenancy: 'Shared', service: 'AmazonEC2' };
    const streams = [
      stream({ ...linux, resourceId: 'large', instanceType: 'm5.large', ondemandPrice: 0.5, usage: [2, 2] }),
      stream({ ...linux, resourceId: 'huge', instanceType: 'm5.2xlarge', ondemandPrice: 2, usage: [1, 0] }),
    ];
    const familyOffer = (recurring: number) =>
      offer({
        id: 'family',
        recurring,
        scope: {
          kind: 'family',
          region: 'us-east-1',
          family: 'm5',
          operatingSystem: 'Linux',
          tenancy: 'Shared',
        },
      });
    const planAt = (recurring: number) =>
      onlyPlan(
        engineInput({ hours: 2, streams, offers: [familyOffer(recurring)], profiles: [HIGH_SAVINGS] }),
      );

    // Act
    const dear = planAt(0.125 * 0.7);
    const cheap = planAt(0.125 * 0.4);

    // Assess: r/p = 0.7 keeps the 8 steady units; r/p = 0.4 takes all 24.
    expect(dear.lineItems[0]?.selected_quantity).toBe(8);
    expect(dear.lineItems[0]?.after_covered_units).toBeCloseTo(8, 12);
    expect(dear.lineItems[0]?.covered_ondemand_cost).toBeCloseTo(1, 12);
    expect(cheap.lineItems[0]?.selected_quantity).toBe(24);
    expect(cheap.lineItems[0]?.after_covered_units).toBeCloseTo(16, 12);
    // Hour 0: 8 of 24 units, shared in proportion: large 2/3 instance, huge 1/3; hour 1: large both.
    const covered = Object.fromEntries(
      Array.from(dear.resourceMatches).map(({ match }) => [match.resource.id, match.after_covered_units]),
    );
    expect(covered.large).toBeCloseTo((2 / 3 + 2) / 2, 12);
    expect(covered.huge).toBeCloseTo(1 / 3 / 2, 12);
    expect(dear.resourceMatches.at(0).match.resource.normalization_size_factor).toMatch(/^(4|16)$/);
  });
});

describe('existing commitments', () => {
  it('plans only for the usage they leave, and counts their cost and coverage', () => {
    // Prepare: 5 units every hour; an RI of 3 units active all window at 0.4 $/h; offer r = 0.5.
    const input = engineInput({
      hours: 4,
      streams: [stream({ usage: [5, 5, 5, 5] })],
      commitments: [commitment({ id: 'ri-1', quantity: 3, recurringCost: 0.4 })],
      offers: [offer({ id: 'o1', recurring: 0.5 })],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { plan, lineItems, resourceMatches } = onlyPlan(input);

    // Assess: residual 2 -> q = 2; coverage (3 + 2) / 5.
    expect(lineItems[0]?.selected_quantity).toBe(2);
    expect(plan.before_ondemand_cost_hourly).toBeCloseTo(2, 12);
    expect(plan.before_reserved_cost_hourly).toBeCloseTo(0.4, 12);
    expect(plan.before_cost_hourly).toBeCloseTo(2.4, 12);
    expect(plan.after_cost_hourly).toBeCloseTo(2.4 - 2 + 1, 12);
    expect(plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(resourceMatches.at(0).match.before_reserved_cost).toBeCloseTo(0.4, 12);
    expect(resourceMatches.at(0).match.before_uncovered_units).toBeCloseTo(2, 12);
    expect(lineItems[0]?.before_reserved_cost).toBeCloseTo(0.4, 12);
  });

  it('ignores expired commitments for coverage and cost', () => {
    // Prepare
    const input = engineInput({
      hours: 2,
      streams: [stream({ usage: [5, 5] })],
      commitments: [
        commitment({ id: 'old', start: '2023-01-01T00:00:00.000Z', end: '2024-01-01T00:00:00.000Z' }),
      ],
      offers: [offer({ id: 'o1' })],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { plan, lineItems } = onlyPlan(input);

    // Assess
    expect(lineItems[0]?.selected_quantity).toBe(5);
    expect(plan.before_reserved_cost_hourly).toBe(0);
  });

  it('applies a savings plan it owns at the rates of the matching catalog offer', () => {
    // Prepare: 1 $/h committed to a compute plan with a 50% discount covers 2 units at p = 1 of 3.
    const rates = [{ discount: 0.5 }];
    const spendOffer = offer({
      id: 'sp',
      contractType: 'compute_plans',
      scope: { kind: 'spend', rates },
      recurring: 1,
    });
    const input = engineInput({
      hours: 2,
      streams: [stream({ usage: [3, 3] })],
      commitments: [
        commitment({
          id: 'sp-1',
          contractType: 'compute_plans',
          instanceType: null,
          quantity: 0,
          hourlyCommitment: 1,
          recurringCost: 1,
        }),
      ],
      offers: [spendOffer, offer({ id: 'ri', recurring: 0.9, scope: instanceScope() })],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { plan } = onlyPlan(input);

    // Assess: residual 1 unit on demand.
    expect(plan.before_ondemand_cost_hourly).toBeCloseTo(1, 12);
    expect(plan.before_reserved_cost_hourly).toBeCloseTo(1, 12);
  });
});
