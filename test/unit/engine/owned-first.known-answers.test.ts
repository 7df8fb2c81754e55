/**
 * Owned first (docs/plan-engine.md): of the commitments sharing a pool, the one bought first is
 * used first, so a commitment bought later never lowers the use of one owned before it. Worked by
 * hand on one Windows m5.large stream ($1 an hour) and two reservations of its exact type:
 *
 * - A, owned since 2024: 2 instances at $0.5 an hour each ($1.0/h);
 * - B, bought 2025-01-01T00:00Z: 2 instances at $0.7 an hour each ($1.4/h).
 */
import { describe, expect, it } from 'vitest';
import { chartSeries, commitmentUses } from '../../../shared/domain/engine/chart/chart';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { commitment, engineInput, HIGH_SAVINGS, hourly, offer, stream, WINDOW_START } from './builders';

const A = commitment({ id: 'a', quantity: 2, recurringCost: 1.0 });
const B = commitment({
  id: 'b',
  quantity: 2,
  recurringCost: 1.4,
  start: WINDOW_START,
  end: '2026-01-01T00:00:00.000Z',
  lockinEnd: '2026-01-01T00:00:00.000Z',
  purchasedAt: WINDOW_START,
});

const close = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 12);

describe('owned first: a later purchase takes what the owned commitments leave', () => {
  // Three instances every hour of the first day.
  const chartInput = (commitments: (typeof A)[]) => ({
    window: { start: WINDOW_START, hours: 24 },
    streams: [stream({ usage: hourly(24, () => 3) })],
    commitments,
    offers: [],
    startDate: '2025-01-01',
    endDate: '2025-01-01',
    today: '2025-01-02',
  });

  it('keeps the owned reservation fully used in the chart once B is bought', () => {
    // Act
    const before = commitmentUses(chartInput([A]))[0]?.uses ?? [];
    const after = commitmentUses(chartInput([A, B]))[0]?.uses ?? [];
    const [point] = chartSeries(chartInput([A, B]));

    // Assess: 3 instances, 4 reserved. A alone: 2 of 2 used, utilization 1. With B, A's 2 are
    // used first (1.0) and B takes the third (1 of 2: 0.5); shared in proportion to quantity
    // (1.5 each) A would read 0.75, below what it was.
    const utilization = (use: { cost: number; usedCost: number } | undefined) =>
      (use?.usedCost ?? 0) / (use?.cost ?? 1);
    close(utilization(before[0]), 1);
    close(utilization(after[0]), 1);
    close(utilization(after[1]), 0.5);
    // Over the day: A costs 24 x 1.0 = 24, all used; B 24 x 1.4 = 33.6, half used = 16.8. The
    // chart's utilization is (24 + 16.8) / (24 + 33.6) = 40.8 / 57.6 = 0.708333..., unutilized
    // 57.6 - 40.8 = 16.8 (in proportion: (18 + 25.2) / 57.6 = 0.75, unutilized 14.4).
    close(point?.utilization ?? 0, 40.8 / 57.6);
    close(point?.unutilized_commit ?? 0, 16.8);
    // Value covered: A $2 an hour, B $1 (at $1 an instance): 48 and 24 over the day.
    close(after[0]?.coveredValue ?? 0, 48);
    close(after[1]?.coveredValue ?? 0, 24);
  });

  it("attributes each used unit at its own commitment's rate in the plan's resource matches", () => {
    // Prepare: 3 and 5 instances in turn; A and B both counted by the plan. An $0.4 reservation
    // for the fifth instance, used half the hours: High Savings buys 1 (0.5 x $1 > $0.4).
    const input = engineInput({
      hours: 24,
      streams: [stream({ usage: hourly(24, (hour) => (hour % 2 === 0 ? 3 : 5)) })],
      commitments: [A, B],
      offers: [offer({ id: 'windows-m5', recurring: 0.4 })],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const [plan] = computePlans(input).plans;
    const match = plan?.resourceMatches.at(0).match;

    // Assess: in hours of 3, A's 2 units at 0.5 and one of B's at 0.7: 1.7 (in proportion, 3 units
    // at the blended (1.0 + 1.4) / 4 = 0.6: 1.8); in hours of 5, all 4 used: 1.0 + 1.4 = 2.4. The
    // mean is (1.7 + 2.4) / 2 = 2.05 (in proportion: 2.1).
    expect(plan?.lineItems.map((item) => item.selected_quantity)).toEqual([1]);
    close(match?.before_reserved_cost ?? 0, 2.05);
    close(plan?.lineItems[0]?.before_reserved_cost ?? 0, 2.05);
    // All that is owned costs 2.4 an hour whatever is used.
    close(plan?.plan.before_reserved_cost_hourly ?? 0, 2.4);
  });

  it('uses a queued reservation bought before B first, though it starts after B', () => {
    // Prepare: Q was bought in 2024 to start 2025-01-01T00:00Z; B2 bought and started then too,
    // an hour later in purchase order than Q.
    const Q = { ...B, id: 'q', purchasedAt: '2024-12-01T00:00:00.000Z' };
    const B2 = { ...B, id: 'b2', start: '2025-01-01T00:00:00.000Z', purchasedAt: '2025-01-01T00:00:00.000Z' };

    // Act: listed B2 first, so that input order decides nothing.
    const [day] = commitmentUses(chartInput([B2, Q]));

    // Assess: 3 instances: Q's 2 first (1), B2 the third (0.5).
    const use = (id: string) => day?.uses.find((entry) => entry.commitment.id === id);
    close((use('q')?.usedCost ?? 0) / (use('q')?.cost ?? 1), 1);
    close((use('b2')?.usedCost ?? 0) / (use('b2')?.cost ?? 1), 0.5);
  });
});
