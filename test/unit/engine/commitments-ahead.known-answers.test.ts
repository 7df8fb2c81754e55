/**
 * Commitments ahead (docs/plan-engine.md, Commitments ahead): an owned reservation starting after the
 * renewal horizon counts, for a new line, from its start for the part of the line's term it
 * overlaps. The fleet of issue 30, item 4: 8 Linux m5.large always on (4 normalization units each,
 * 32 units), $1 an instance-hour ($0.25 a unit-hour), over a 24-hour window; the org owns 2
 * m5.large (8 units) reserved for 3 years from 65 days after the plan (1,560 hours). High Savings
 * (h = 0: every hour of a term weighs the same).
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment, Offer } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, hourly, ONE_YEAR, offer, stream } from './builders';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const THREE_YEARS = 3 * ONE_YEAR;
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

/** An m5 family reservation of `termHours` at `recurring` a unit-hour. */
const familyOffer = (id: string, termHours: number, recurring: number) =>
  offer({
    id,
    termHours,
    lockinHours: termHours,
    recurring,
    scope: M5_FAMILY,
    productDescription: 'Linux/UNIX',
  });

/** 2 Linux m5.large reserved for 3 years from `startsInDays` days after the plan. */
const ownedFrom = (startsInDays: number): ExistingCommitment => {
  const start = PLAN_TIME + startsInDays * DAY_MS;
  return commitment({
    id: 'ri-ahead',
    ...LINUX,
    quantity: 2,
    recurringCost: 0.1,
    start: iso(start),
    end: iso(start + THREE_YEARS * HOUR_MS),
    lockinEnd: iso(start + THREE_YEARS * HOUR_MS),
    purchasedAt: iso(PLAN_TIME - DAY_MS),
  });
};

function linesOf(offers: readonly Offer[], commitments: readonly ExistingCommitment[]) {
  const [only] = computePlans(
    engineInput({
      hours: 24,
      streams: [stream({ ...LINUX, usage: hourly(24, () => 8) })],
      offers: [...offers],
      commitments: [...commitments],
      profiles: [HIGH_SAVINGS],
      createdAt: iso(PLAN_TIME),
    }),
  ).plans;
  return (only?.lineItems ?? []).map((item) => [item.offer_id, item.selected_quantity]);
}

describe('commitments starting after the renewal horizon', () => {
  it('leaves to the owned reservation the 8 units it covers for 94% of a 3-year line term', () => {
    // Prepare: a 3-year family reservation at $0.1 a unit-hour.
    const offers = [familyOffer('o-3y', THREE_YEARS, 0.1)];

    // Act
    const without = linesOf(offers, []);
    const owning = linesOf(offers, [ownedFrom(65)]);

    // Assess: a line bought now meets the owned 8 units from hour 1,560 to the end of its 26,280:
    // the top 8 units are worth 0.25 for (1,560 / 26,280) of the term, 0 after: 0.25 x 0.0594 =
    // 0.0148 < 0.1 a unit-hour; the 24 below are worth 0.25 > 0.1. So 24, not 32 (before, 32:
    // $0.8 an hour of the new line unused for nearly 3 years once the owned one starts).
    expect(without).toEqual([['o-3y', 32]]);
    expect(owning).toEqual([['o-3y', 24]]);
  });

  it('covers those 8 units until the owned reservation starts with a line whose term ends before it', () => {
    // Prepare: beside the 3-year offer, a 30-day one (T = L = 720 hours) at $0.2 a unit-hour.
    const offers = [familyOffer('o-3y', THREE_YEARS, 0.1), familyOffer('o-30d', 720, 0.2)];

    // Act
    const owning = linesOf(offers, [ownedFrom(65)]);

    // Assess: the 3-year line takes the 24 (W = 26,280 x 24 x 0.15 = 94,608 against the 30-day
    // line's 720 x 32 x 0.05 = 1,152). On the 8 it leaves, the 30-day line ends 1,560 - 720 hours
    // before the owned one starts: it meets none of it, each unit is worth 0.25 > 0.2: 8 bought.
    expect(owning).toEqual([
      ['o-3y', 24],
      ['o-30d', 8],
    ]);
  });

  it('weighs the overlap of a one-year line by its share of that term', () => {
    // Prepare: a one-year offer only, at $0.03 and at $0.05 a unit-hour; the owned 8 units start
    // on day 65 (hour 1,560 of 8,760): the top 8 units are worth 0.25 x 1,560 / 8,760 = 0.0445.
    const at = (recurring: number) => linesOf([familyOffer('o-1y', ONE_YEAR, recurring)], [ownedFrom(65)]);

    // Act
    const cheap = at(0.03);
    const dear = at(0.05);

    // Assess: 0.0445 > 0.03 buys all 32; 0.0445 < 0.05 leaves the 8 to the owned reservation.
    expect(cheap).toEqual([['o-1y', 32]]);
    expect(dear).toEqual([['o-1y', 24]]);
  });
});
