/**
 * Existing commitments in a plan worked by hand: what they leave, what they cost, when they have ended. Each case writes its arithmetic next to the numbers it checks.
 */
import { describe, expect, it } from 'vitest';
import { commitment, engineInput, HIGH_SAVINGS, instanceScope, offer, stream } from './builders';
import { onlyPlan } from './only-plan';

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
