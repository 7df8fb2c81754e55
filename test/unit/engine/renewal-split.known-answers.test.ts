/**
 * A renewal delays only what it renews (docs/plan-engine.md, Renewals): of a line covering the
 * usage an owned commitment leaves within the renewal horizon, the part that replaces it starts at
 * its end and the rest is bought now. The fleet (issue 30, item 3): 8 Linux m5.large always
 * on (4 normalization units each, 32 units), $1 an instance-hour ($0.25 a unit-hour), over a 24-hour
 * window; the org owns 2 m5.large (8 units) ending 10 days after the plan. The m5 family
 * reservation costs $0.125 a unit-hour: every unit saves $0.125 an hour, so every profile covers
 * the 32 units.
 */
import { describe, expect, it } from 'vitest';
import { resourceMatchesForWindow } from '../../../shared/domain/engine/matches/window-matches';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, hourly, offer, stream } from './builders';

const DAY_MS = 86_400_000;
// The window is 2025-01-01T00:00Z + 24 h; the plan is computed an hour after it ends.
const PLAN_TIME = Date.parse('2025-01-02T01:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const LINUX = { operatingSystem: 'Linux', tenancy: 'Shared' } as const;
const M5_FAMILY = {
  kind: 'family',
  region: 'us-east-1',
  family: 'm5',
  operatingSystem: 'Linux',
  tenancy: 'Shared',
} as const;

/** `quantity` Linux m5.large reserved for a year ending at `end`, $0.5 an instance-hour. */
const ownedEnding = (id: string, end: number, quantity: number): ExistingCommitment =>
  commitment({
    id,
    ...LINUX,
    quantity,
    recurringCost: 0.5 * quantity,
    start: iso(end - 365 * DAY_MS),
    end: iso(end),
    lockinEnd: iso(end),
  });

const inputOwning = (commitments: readonly ExistingCommitment[]) =>
  engineInput({
    hours: 24,
    streams: [stream({ ...LINUX, usage: hourly(24, () => 8) })],
    offers: [offer({ id: 'o-m5', recurring: 0.125, scope: M5_FAMILY, productDescription: 'Linux/UNIX' })],
    commitments: [...commitments],
    profiles: [HIGH_SAVINGS],
    createdAt: iso(PLAN_TIME),
  });

function highSavingsOwning(commitments: readonly ExistingCommitment[]) {
  const [only] = computePlans(inputOwning(commitments)).plans;
  return only?.lineItems ?? [];
}

describe('a renewal delays only what it renews', () => {
  it('buys now the 24 units nothing renews and queues the 8 the ending reservation held', () => {
    // Prepare: 2 m5.large = 8 units end on day 10, 2025-01-12T01:00Z; nothing else is owned.
    const end = PLAN_TIME + 10 * DAY_MS;

    // Act
    const items = highSavingsOwning([ownedEnding('ri-ending', end, 2)]);

    // Assess: 32 units in all, as before the split; 32 - 8 = 24 start when bought (null), the 8 at
    // the reservation's end. Each unit covers $0.25 an hour for $0.125: the 24 cover 24 x 0.25 = 6
    // and save 6 - 24 x 0.125 = 3 an hour; the 8 cover 2 and save 1 (before the split one line of
    // 32 covered 8 and saved 4, and started on day 10: 24 units on demand for 10 days).
    const now = items.find((item) => item.startsAt === null);
    const renewal = items.find((item) => item.startsAt !== null);
    expect(items).toHaveLength(2);
    expect(now).toMatchObject({ offer_id: 'o-m5', selected_quantity: 24 });
    expect(now?.covered_ondemand_cost).toBeCloseTo(6, 12);
    expect(now?.savings).toBeCloseTo(3, 12);
    expect(renewal).toMatchObject({ offer_id: 'o-m5', selected_quantity: 8, startsAt: iso(end) });
    expect(renewal?.covered_ondemand_cost).toBeCloseTo(2, 12);
    expect(renewal?.savings).toBeCloseTo(1, 12);
    expect(new Set(items.map((item) => item.id)).size).toBe(2);
  });

  it('queues one part per end when two reservations end on different days', () => {
    // Prepare: 1 m5.large (4 units) ends on day 5, 1 more on day 20; 24 units are not renewed.
    const sooner = PLAN_TIME + 5 * DAY_MS;
    const later = PLAN_TIME + 20 * DAY_MS;

    // Act
    const items = highSavingsOwning([ownedEnding('ri-20', later, 1), ownedEnding('ri-5', sooner, 1)]);

    // Assess: 24 now, 4 from day 5 (2025-01-07T01:00Z), 4 from day 20 (2025-01-22T01:00Z):
    // 32 units, each part saving its units x 0.125.
    const byStart = new Map(items.map((item) => [item.startsAt, item]));
    expect(items).toHaveLength(3);
    expect(byStart.get(null)?.selected_quantity).toBe(24);
    expect(byStart.get(iso(sooner))?.selected_quantity).toBe(4);
    expect(byStart.get(iso(later))?.selected_quantity).toBe(4);
    const savings = items.reduce((sum, item) => sum + item.savings, 0);
    expect(savings).toBeCloseTo(32 * 0.125, 12);
  });

  it('queues the whole line when the reservations ending cover all it buys', () => {
    // Prepare: all 8 m5.large (32 units) end on day 10.
    const end = PLAN_TIME + 10 * DAY_MS;

    // Act
    const items = highSavingsOwning([ownedEnding('ri-all', end, 8)]);

    // Assess: one line of 32 starting at the end, nothing bought now.
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ selected_quantity: 32, startsAt: iso(end) });
  });

  it('matches the parts over the window as the plan did: the renewal part under the one bought now', () => {
    // Prepare
    const input = inputOwning([ownedEnding('ri-ending', PLAN_TIME + 10 * DAY_MS, 2)]);
    const [only] = computePlans(input).plans;
    const items = only?.lineItems ?? [];

    // Act
    const matches = resourceMatchesForWindow(input, items, { start: 0, end: 24 });

    // Assess: per line, the endpoint's matches are the plan's (8 m5.large = 32 units: the renewal
    // part, the bottom, covers 8 units = 2 instances of the 8, the part bought now the other 6).
    const coveredOf = (list: Iterable<{ lineItemId: string; match: { after_covered_units: number } }>) =>
      Object.fromEntries(
        Array.from(list, ({ lineItemId, match }) => [lineItemId, match.after_covered_units]),
      );
    const renewal = items.find((item) => item.startsAt !== null);
    const now = items.find((item) => item.startsAt === null);
    expect(coveredOf(matches)).toEqual(coveredOf(only?.resourceMatches ?? []));
    expect(coveredOf(matches)[renewal?.id ?? '']).toBeCloseTo(2, 12);
    expect(coveredOf(matches)[now?.id ?? '']).toBeCloseTo(6, 12);
  });
});
