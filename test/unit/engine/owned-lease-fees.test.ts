/**
 * An owned lease's fee is part of what the org pays before a plan (docs/plan-engine.md, Figures):
 * one Windows m5.large runs every hour at $1; the org owns a 30-day lease of it at $0.5/h whose
 * fee is 30% of what it saves: 0.3 x (1 - 0.5) = $0.15/h. The plan's before_reserved_cost_hourly
 * is 0.5 + 0.15 = 0.65, and before_cost_hourly the same (nothing is left on demand).
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { commitment, engineInput, hourly, offer, stream } from './builders';

describe('owned lease fees', () => {
  it("count in the plan's before_reserved_cost_hourly: 0.5 amortized + 0.15 fee", () => {
    const lease = offer({ id: 'o-lease', lockinHours: 720, feeRate: 0.3, recurring: 0.5 });
    const owned = commitment({
      id: 'owned-lease',
      start: '2024-12-01T00:00:00.000Z',
      end: '2025-12-01T00:00:00.000Z',
      lockinEnd: '2024-12-31T00:00:00.000Z',
    });

    const result = computePlans(
      engineInput({
        hours: 24,
        streams: [stream({ usage: hourly(24, () => 1) })],
        offers: [lease],
        commitments: [owned],
      }),
    );

    for (const { plan } of result.plans) {
      expect(plan.before_ondemand_cost_hourly).toBe(0);
      expect(plan.before_reserved_cost_hourly).toBeCloseTo(0.65, 12);
      expect(plan.before_cost_hourly).toBeCloseTo(0.65, 12);
    }
  });
});
