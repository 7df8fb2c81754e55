/**
 * A lease's fee is never charged on coverage the org already had (issue 30 item 7; docs/plan-engine.md,
 * New lines and owned savings plans). Worked by hand: one Windows m5.large stream at p = 1 running
 * 2 units in even hours and 1 in odd hours; the org owns a Compute Savings Plan of $0.5/h at a 50%
 * discount, which covers 1 unit every hour (0.5 / (1 - 0.5) = $1 of usage). What it leaves on demand
 * is [1, 0, 1, 0, ...]. A 30-day lease at $0.3 a unit-hour with a 30% fee on what it saves
 * (0.3 x (1 - 0.3) = $0.21 a covered unit-hour) looks worth a unit when valued on that residual
 * alone (the engine before the rule bought it and promised a saving).
 * On the bill the lease applies before the savings plan, in every hour:
 *   even hours: lease 1 unit, savings plan 1 unit: 0.3 + 0.21 + 0.5 = 1.01 (before: 0.5 + 1 = 1.5)
 *   odd hours:  lease 1 unit (fee 0.21 on a unit the plan covered), plan idle: 1.01 (before: 0.5)
 * so the bill goes from 1.0/h to 1.01/h: the line loses money. No plan may hold it.
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine';
import { commitment, engineInput, HIGH_SAVINGS, hourly, instanceScope, offer, stream } from './builders';

const HOURS = 24;

describe('a lease beside an owned savings plan', () => {
  const input = engineInput({
    hours: HOURS,
    streams: [stream({ usage: hourly(HOURS, (t) => (t % 2 === 0 ? 2 : 1)) })],
    commitments: [
      commitment({
        id: 'owned-compute-plan',
        contractType: 'compute_plans',
        instanceType: null,
        quantity: 0,
        hourlyCommitment: 0.5,
        recurringCost: 0.5,
      }),
    ],
    offers: [
      offer({
        id: 'compute-plan',
        contractType: 'compute_plans',
        scope: { kind: 'spend', rates: [{ discount: 0.5 }] },
        recurring: 1,
      }),
      offer({ id: 'lease', scope: instanceScope(), recurring: 0.3, feeRate: 0.3, lockinHours: 720 }),
    ],
    profiles: [HIGH_SAVINGS],
  });

  it('is not bought: it would only move the fee onto hours the owned plan already covers', () => {
    const [profile] = computePlans(input).plans;

    expect(profile?.lineItems).toEqual([]);
  });

  it("leaves the plan's figures those of the bill: before 1.0 an hour, nothing promised for the lease", () => {
    const [profile] = computePlans(input).plans;
    const plan = profile?.plan;
    expect(plan).toBeDefined();

    // Before: the plan's 0.5 and the on-demand unit of every other hour (1 x 12 / 24 = 0.5).
    expect(plan?.before_cost_hourly).toBeCloseTo(1, 12);
    expect(plan?.before_ondemand_cost_hourly).toBeCloseTo(0.5, 12);
    expect(plan?.savings_hourly).toBeCloseTo(0, 12);
  });
});
