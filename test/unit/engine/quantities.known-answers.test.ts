/**
 * Quantities worked by hand: the risk-aware rule, fees, offer choice, savings-plan levels and AWS size flexibility. Each case writes its arithmetic next to the numbers it checks.
 */
import { describe, expect, it } from 'vitest';
import { engineInput, HIGH_SAVINGS, offer, stream } from './builders';
import { onlyPlan, TEN_THEN_FOUR } from './only-plan';

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
