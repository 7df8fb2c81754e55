/**
 * Renewal lines (docs/plan-engine.md, Renewals): a line covering usage an owned commitment leaves
 * within the renewal horizon replaces it and starts at its end. The fleet: 4 Windows m5.large always
 * on over a 24-hour window at $1 per instance-hour; the catalog's one-year reservation costs $0.5
 * an hour, so every unit saves $0.5/h and every profile buys what is uncovered.
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment, UsageStream } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, hourly, instanceScope, offer, stream } from './builders';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// The window is 2025-01-01T00:00Z + 24 h; the plan is computed an hour after it ends.
const PLAN_TIME = Date.parse('2025-01-02T01:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A one-year reservation of `quantity` of `instanceType` ending at `end`, $0.5 an hour each. */
const reservationEnding = (id: string, end: number, quantity = 4, instanceType = 'm5.large') =>
  commitment({
    id,
    instanceType,
    quantity,
    recurringCost: 0.5 * quantity,
    start: iso(end - 365 * DAY_MS),
    end: iso(end),
    lockinEnd: iso(end),
  });

function plansOwning(commitments: readonly ExistingCommitment[], streams?: readonly UsageStream[]) {
  return computePlans(
    engineInput({
      hours: 24,
      streams: [...(streams ?? [stream({ usage: hourly(24, () => 4) })])],
      offers: [
        offer({ id: 'o-m5', recurring: 0.5 }),
        offer({ id: 'o-c5', recurring: 0.5, scope: instanceScope({ instanceType: 'c5.large' }) }),
      ],
      commitments: [...commitments],
      createdAt: iso(PLAN_TIME),
    }),
  );
}

const lineOf = (result: ReturnType<typeof plansOwning>, offerId: string) => {
  const recommended = result.plans.find((entry) => entry.plan.id === result.recommendedPlanId);
  return recommended?.lineItems.find((item) => item.offer_id === offerId);
};

describe('renewal lines', () => {
  it('starts the line replacing a reservation that ends in 10 days at that end; the v2 plan is a renewal', () => {
    // Prepare: the 4 owned end 10 days after the plan time, inside the 30-day horizon.
    const end = PLAN_TIME + 10 * DAY_MS;

    // Act
    const result = plansOwning([reservationEnding('ri-expiring', end)]);

    // Assess: the 4 it leaves are bought again (4 x $1 > 4 x $0.5), to start at 2025-01-12T01:00Z.
    const line = lineOf(result, 'o-m5');
    expect(line?.selected_quantity).toBe(4);
    expect(line?.startsAt).toBe('2025-01-12T01:00:00.000Z');
    expect(result.purchasePlan?.plan_type).toBe('renewal');
    expect(result.purchasePlan?.is_renewal).toBe(true);
  });

  it('buys now, as a purchase plan, when nothing owned ends within the horizon', () => {
    // Prepare: nothing owned; then 4 owned ending in 40 days (counted) beside 4 more used.
    const owned = reservationEnding('ri-40', PLAN_TIME + 40 * DAY_MS);

    // Act
    const bare = plansOwning([]);
    const withOwned = plansOwning([owned], [stream({ usage: hourly(24, () => 8) })]);

    // Assess: 4 bought now in both (8 used - 4 counted = 4 left); no start, plan_type purchase.
    for (const result of [bare, withOwned]) {
      const line = lineOf(result, 'o-m5');
      expect(line?.selected_quantity).toBe(4);
      expect(line?.startsAt).toBeNull();
      expect(result.purchasePlan?.plan_type).toBe('purchase');
      expect(result.purchasePlan?.is_renewal).toBe(false);
    }
  });

  it("queues each renewed reservation's part at its own end when two end on different days", () => {
    // Prepare: 2 end in 20 days, 2 in 5 days: both renewed, 4 left to cover.
    const later = reservationEnding('ri-20', PLAN_TIME + 20 * DAY_MS, 2);
    const sooner = reservationEnding('ri-5', PLAN_TIME + 5 * DAY_MS, 2);

    // Act
    const result = plansOwning([later, sooner]);

    // Assess: 2 bought from day 5 (2025-01-07T01:00Z), 2 from day 20 (2025-01-22T01:00Z): each
    // starts when the 2 it replaces stop covering (docs/plan-engine.md, Renewals).
    const recommended = result.plans.find((entry) => entry.plan.id === result.recommendedPlanId);
    const parts = recommended?.lineItems.filter((item) => item.offer_id === 'o-m5') ?? [];
    expect(parts.map((item) => [item.startsAt, item.selected_quantity]).sort()).toEqual([
      ['2025-01-07T01:00:00.000Z', 2],
      ['2025-01-22T01:00:00.000Z', 2],
    ]);
  });

  it('starts a line now when its usage is not the renewed one, beside a renewal', () => {
    // Prepare: 4 m5.large owned until day 10; 2 c5.large used with nothing owned.
    const streams = [
      stream({ usage: hourly(24, () => 4) }),
      stream({ resourceId: 'i-c5', instanceType: 'c5.large', usage: hourly(24, () => 2) }),
    ];

    // Act
    const result = plansOwning([reservationEnding('ri-expiring', PLAN_TIME + 10 * DAY_MS)], streams);

    // Assess: the m5 line renews (starts day 10), the c5 line (2 units) is bought now.
    expect(lineOf(result, 'o-m5')?.startsAt).toBe('2025-01-12T01:00:00.000Z');
    const c5 = lineOf(result, 'o-c5');
    expect(c5?.selected_quantity).toBe(2);
    expect(c5?.startsAt).toBeNull();
    expect(result.purchasePlan?.plan_type).toBe('renewal');
  });

  it("works docs/plan-engine.md's example: of High Savings' 4, the 3 renewing C start at its end", () => {
    // Prepare: 8 m5.large always on over 2025-06-01T00:00Z + 720 h; T = 2025-07-01T03:00Z, H = 30 days.
    // A: 4 from 2025-07-01T02:00Z for a year (counted); B: 2 from 2024-06-15 to 2025-06-15 (ended:
    // not counted); C: 3 until 2025-07-20 (renewed: ends 19 days after T).
    const year = (start: string) => new Date(Date.parse(start) + 365 * DAY_MS).toISOString();
    const owned = (id: string, quantity: number, start: string, end: string) =>
      commitment({ id, quantity, recurringCost: 0.5 * quantity, start, end, lockinEnd: end });
    const input = engineInput({
      hours: 720,
      window: { start: '2025-06-01T00:00:00.000Z', hours: 720 },
      streams: [stream({ usage: hourly(720, () => 8) })],
      offers: [offer({ id: 'o-m5', recurring: 0.5 })],
      commitments: [
        owned('A', 4, '2025-07-01T02:00:00.000Z', year('2025-07-01T02:00:00.000Z')),
        owned('B', 2, '2024-06-15T00:00:00.000Z', '2025-06-15T00:00:00.000Z'),
        owned('C', 3, '2024-07-20T00:00:00.000Z', '2025-07-20T00:00:00.000Z'),
      ],
      profiles: [HIGH_SAVINGS],
      createdAt: '2025-07-01T03:00:00.000Z',
    });

    // Act
    const [only] = computePlans(input).plans;

    // Assess: residual 8 - 4 = 4 in every hour, covered in C's group: the 3 C held start at its end,
    // the 1 B left (nothing renews it) when bought.
    const parts = (only?.lineItems ?? []).map((item) => [item.startsAt, item.selected_quantity]);
    expect(parts).toHaveLength(2);
    expect(parts).toEqual(
      expect.arrayContaining([
        ['2025-07-20T00:00:00.000Z', 3],
        [null, 1],
      ]),
    );
  });
});
