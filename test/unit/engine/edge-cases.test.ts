import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { ValidationError } from '../../../shared/domain/errors';
import { commitment, engineInput, HIGH_SAVINGS, ONE_YEAR, offer, stream } from './builders';

describe('computePlans edge cases', () => {
  it('returns the three default plans, empty, and no recommendation when there is no usage', () => {
    // Act
    const result = computePlans(engineInput({ hours: 720, offers: [offer({ id: 'o1' })] }));

    // Assess
    expect(result.plans.map((entry) => entry.plan.name)).toEqual(['Recommended', 'Balanced', 'High Savings']);
    for (const { plan, lineItems, resourceMatches } of result.plans) {
      expect(lineItems).toEqual([]);
      expect(resourceMatches.size).toBe(0);
      expect(plan.max_term).toBeNull();
      expect(plan.before_cost_hourly).toBe(0);
      expect(plan.commitment_coverage).toBe(0);
      expect(plan.status).toBe('new');
      expect(plan.is_calculating).toBe(false);
    }
    expect(result.recommendedPlanId).toBeNull();
    expect(result.purchasePlan).toBeNull();
  });

  it('treats streams whose usage is all zeros as no usage', () => {
    // Act
    const result = computePlans(
      engineInput({ hours: 3, streams: [stream({ usage: [0, 0, 0] })], offers: [offer({ id: 'o1' })] }),
    );

    // Assess
    expect(result.plans.every((entry) => entry.lineItems.length === 0)).toBe(true);
    expect(result.recommendedPlanId).toBeNull();
  });

  it('plans from a single hour', () => {
    // Act
    const result = computePlans(
      engineInput({
        hours: 1,
        streams: [stream({ usage: [3] })],
        offers: [offer({ id: 'o1' })],
        profiles: [HIGH_SAVINGS],
      }),
    );

    // Assess
    expect(result.plans[0]?.lineItems[0]?.selected_quantity).toBe(3);
  });

  it('counts hours without usage: units used half the time are not worth r/p = 0.55', () => {
    // Act
    const result = computePlans(
      engineInput({
        hours: 4,
        streams: [stream({ usage: [0, 3, 0, 3] })],
        offers: [offer({ id: 'o1', recurring: 0.55 })],
        profiles: [HIGH_SAVINGS],
      }),
    );

    // Assess
    expect(result.plans[0]?.lineItems).toEqual([]);
  });

  it('recommends nothing when existing commitments already cover all usage', () => {
    // Act
    const result = computePlans(
      engineInput({
        hours: 2,
        streams: [stream({ usage: [2, 2] })],
        commitments: [commitment({ id: 'ri', quantity: 2 })],
        offers: [offer({ id: 'o1' })],
      }),
    );

    // Assess
    for (const { plan, lineItems } of result.plans) {
      expect(lineItems).toEqual([]);
      expect(plan.commitment_coverage).toBe(1);
      expect(plan.before_ondemand_cost_hourly).toBe(0);
    }
    expect(result.recommendedPlanId).toBeNull();
  });

  it('handles all-upfront offers: no recurring cost, the whole cost upfront and locked in', () => {
    // Prepare: r = 0.4 * 8760 / 8760 = 0.4 per unit-hour, paid upfront.
    const input = engineInput({
      hours: 2,
      streams: [stream({ usage: [2, 2] })],
      offers: [offer({ id: 'o1', upfront: 0.4 * ONE_YEAR, recurring: 0, paymentOption: 'All Upfront' })],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const { plan, lineItems } = computePlans(input).plans[0] as ReturnType<
      typeof computePlans
    >['plans'][number];

    // Assess
    const item = lineItems[0];
    expect(item?.selected_quantity).toBe(2);
    expect(item?.recurring_cost).toBe(0);
    expect(item?.upfront_cost).toBeCloseTo(2 * 0.4 * ONE_YEAR, 9);
    expect(item?.total_cost).toBeCloseTo(2 * 0.4 * ONE_YEAR, 9);
    expect(item?.after_amortized_cost).toBeCloseTo(0.8, 12);
    expect(plan.upfront_cost_hourly).toBeCloseTo(0.8, 12);
    expect(plan.minimum_commitment_cost).toBeCloseTo(item?.total_cost ?? 0, 9);
  });

  it('plans only for its provider: other providers and their offers are left out', () => {
    // Act
    const result = computePlans(
      engineInput({
        hours: 2,
        streams: [stream({ usage: [2, 2] }), stream({ resourceId: 'vm', provider: 'azure', usage: [5, 5] })],
        offers: [offer({ id: 'o1' }), offer({ id: 'az', provider: 'azure' })],
        profiles: [HIGH_SAVINGS],
      }),
    );

    // Assess
    expect(result.plans[0]?.lineItems.map((item) => item.offer_id)).toEqual(['o1']);
    expect(result.plans[0]?.plan.before_ondemand_cost_hourly).toBeCloseTo(2, 12);
  });

  it.each([
    ['a usage array shorter than the window', { streams: [stream({ usage: [1] })] }, 'streams[0].usage'],
    ['negative usage', { streams: [stream({ usage: [1, -1] })] }, 'streams[0].usage'],
    ['non-finite usage', { streams: [stream({ usage: [1, Number.NaN] })] }, 'streams[0].usage'],
    ['a fee rate above 1', { offers: [offer({ id: 'o1', feeRate: 1.5 })] }, 'offers[0].feeRate'],
    [
      'a lock-in longer than the term',
      { offers: [offer({ id: 'o1', lockinHours: 9000 })] },
      'offers[0].lockinHours',
    ],
    ['a hazard of 1', { profiles: [{ name: 'Recommended' as const, hazard: 1 }] }, 'profiles[0].hazard'],
    [
      'a commitment ending before it starts',
      { commitments: [commitment({ id: 'c', end: '2020-01-01T00:00:00Z' })] },
      'commitments[0].end',
    ],
  ])('rejects %s, naming the field', (_, overrides, field) => {
    // Act
    const act = () => computePlans(engineInput({ hours: 2, ...overrides }));

    // Assess
    expect(act).toThrow(ValidationError);
    try {
      act();
    } catch (error) {
      expect(Object.keys((error as ValidationError).fields)).toContain(field);
    }
  });

  it('rejects a window that does not start on a whole hour', () => {
    // Act
    const act = () =>
      computePlans({ ...engineInput({ hours: 1 }), window: { start: '2025-01-01T00:30:00Z', hours: 1 } });

    // Assess
    expect(act).toThrow(ValidationError);
  });
});
