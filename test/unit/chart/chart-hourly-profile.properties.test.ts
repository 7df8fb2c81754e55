/**
 * The chart's daily figures against a naive hour loop written here from the rules
 * (docs/plan-engine.md, The chart and Owned first), over random fleets and owned reservations that
 * start and end at any hour before, inside and after the window: exact Windows m5 and r5 groups, a
 * size-flexible Linux m5 group (normalized units, one price per unit), reservations of two
 * accounts shared by the org, each used in the order bought. In a window hour the loop applies them
 * to that hour's usage; in any other hour to each window hour's usage in turn, and averages: the
 * window's mean hour. It reads nothing the engine computed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartSeries, type ExistingCommitment, type UsageStream } from '../../../shared/domain/engine';
import { commitment } from '../engine/builders';
import { HOUR_MS, streamsArbitrary, WINDOW_HOURS } from '../engine/fleet-purchases';

const WINDOW_START = Date.UTC(2025, 0, 1);
/** Two days before the window, its two days, and five after it. */
const FIRST_DAY = '2024-12-30';
const DAYS = 9;
const LAST_DAY = '2025-01-07';

const M5_UNITS: Readonly<Record<string, number>> = { 'm5.large': 4, 'm5.xlarge': 8 };
const groupOf = (instanceType: string, os: string | undefined) =>
  os === 'Linux' ? 'linux:m5' : `windows:${instanceType}`;
const unitsOf = (instanceType: string, os: string | undefined) =>
  os === 'Linux' ? (M5_UNITS[instanceType] as number) : 1;
/** On-demand dollars per unit: the fleet's Windows instances cost 1, its Linux m5 0.125 a normalized unit. */
const priceOf = (group: string) => (group === 'linux:m5' ? 0.125 : 1);

const hourAt = (hours: number) => new Date(WINDOW_START + hours * HOUR_MS).toISOString();

/** Reservations of the fleet's types from any hour (some at half past) for any number of hours. */
const ownedArbitrary = fc
  .array(
    fc.record({
      kind: fc.constantFrom('windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge'),
      account: fc.constantFrom('a', 'b'),
      quantity: fc.integer({ min: 1, max: 4 }),
      rate: fc.constantFrom(0.05, 0.3, 0.7),
      start: fc.integer({ min: -80, max: 160 }),
      halfPast: fc.boolean(),
      hours: fc.integer({ min: 1, max: 240 }),
      boughtBefore: fc.integer({ min: 0, max: 30 }),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((specs) =>
    specs.map((spec, index): ExistingCommitment => {
      const linux = spec.kind.startsWith('linux');
      const start = spec.start + (spec.halfPast ? 0.5 : 0);
      return commitment({
        id: `owned-${index}`,
        accountId: spec.account,
        instanceType:
          spec.kind === 'windows-r5' ? 'r5.large' : spec.kind === 'linux-xlarge' ? 'm5.xlarge' : 'm5.large',
        operatingSystem: linux ? 'Linux' : 'Windows',
        quantity: spec.quantity,
        recurringCost: spec.quantity * spec.rate,
        start: hourAt(start),
        end: hourAt(start + spec.hours),
        lockinEnd: hourAt(start + spec.hours),
        purchasedAt: hourAt(start - spec.boughtBefore),
      });
    }),
  );

interface DayFigures {
  cost: number;
  usedCost: number;
  covered: number;
}

/**
 * One hour's figures of the reservations in force, in the order bought, over the usage of the
 * hours given (one: observed; the window's: their mean).
 */
function applied(inForce: readonly ExistingCommitment[], hours: readonly Map<string, number>[]): DayFigures {
  const figures: DayFigures = { cost: 0, usedCost: 0, covered: 0 };
  for (const entry of inForce) figures.cost += entry.recurringCost;
  for (const demand of hours) {
    const left = new Map(demand);
    for (const entry of inForce) {
      const type = entry.instanceType as string;
      const group = groupOf(type, entry.operatingSystem);
      const capacity = entry.quantity * unitsOf(type, entry.operatingSystem);
      const used = Math.min(capacity, left.get(group) ?? 0);
      left.set(group, (left.get(group) ?? 0) - used);
      figures.usedCost += (entry.recurringCost * used) / capacity / hours.length;
      figures.covered += (used * priceOf(group)) / hours.length;
    }
  }
  return figures;
}

/** Per day: the reservations' cost, the part of it used, the on-demand value they covered. */
function oracleDays(streams: readonly UsageStream[], owned: readonly ExistingCommitment[]): DayFigures[] {
  const demandAt = (hour: number) => {
    const demand = new Map<string, number>();
    for (const each of streams) {
      const group = groupOf(each.instanceType, each.operatingSystem);
      const units = (each.usage[hour] as number) * unitsOf(each.instanceType, each.operatingSystem);
      demand.set(group, (demand.get(group) ?? 0) + units);
    }
    return demand;
  };
  const windowDemand = Array.from({ length: WINDOW_HOURS }, (_, hour) => demandAt(hour));
  const ceilHour = (iso: string) => Math.ceil(Date.parse(iso) / HOUR_MS);
  const inOrder = owned
    .map((entry, position) => ({ entry, position }))
    .sort(
      (a, b) =>
        ceilHour(a.entry.purchasedAt as string) - ceilHour(b.entry.purchasedAt as string) ||
        a.position - b.position,
    )
    .map(({ entry }) => entry);
  const first = Date.parse(`${FIRST_DAY}T00:00:00Z`);
  const meanHours = new Map<string, DayFigures>();
  return Array.from({ length: DAYS }, (_, day) => {
    const figures: DayFigures = { cost: 0, usedCost: 0, covered: 0 };
    for (let hour = 0; hour < 24; hour++) {
      const at = first / HOUR_MS + day * 24 + hour;
      const inForce = inOrder.filter((entry) => ceilHour(entry.start) <= at && at < ceilHour(entry.end));
      const windowHour = at - WINDOW_START / HOUR_MS;
      const observed = windowHour >= 0 && windowHour < WINDOW_HOURS;
      const hours = observed ? [windowDemand[windowHour] as Map<string, number>] : windowDemand;
      // A projected hour of one set in force is the same in every hour it is in force: worked once.
      const key = observed ? null : inForce.map((entry) => entry.id).join(',');
      const thisHour = (key !== null && meanHours.get(key)) || applied(inForce, hours);
      if (key !== null) meanHours.set(key, thisHour);
      figures.cost += thisHour.cost;
      figures.usedCost += thisHour.usedCost;
      figures.covered += thisHour.covered;
    }
    return figures;
  });
}

describe('the chart of random fleets and reservations, against a naive hour loop', () => {
  it('gives each day the utilization, unused commitment and savings of applying them hour by hour', () => {
    fc.assert(
      fc.property(
        streamsArbitrary(['windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge']),
        ownedArbitrary,
        (streams, owned) => {
          // Act
          const points = chartSeries({
            window: { start: new Date(WINDOW_START).toISOString(), hours: WINDOW_HOURS },
            streams,
            commitments: owned,
            offers: [],
            startDate: FIRST_DAY,
            endDate: LAST_DAY,
            today: '2025-01-02',
          });
          const byHand = oracleDays(streams, owned);

          // Assess
          expect(points).toHaveLength(DAYS);
          points.forEach((point, day) => {
            const hand = byHand[day] as DayFigures;
            const close = (value: number, expected: number, what: string) =>
              expect(Math.abs(value - expected), `${what} on ${point.date}`).toBeLessThan(
                1e-9 * Math.max(1, Math.abs(expected)),
              );
            close(point.utilization, hand.cost > 0 ? hand.usedCost / hand.cost : 0, 'utilization');
            close(point.unutilized_commit, hand.cost - hand.usedCost, 'unutilized_commit');
            close(point.savings, hand.covered - hand.cost, 'savings');
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
