/**
 * "No plan ever lowers utilization of what the org owns below what it was" (docs/plan-engine.md,
 * Owned first): over random fleets and owned reservations (in force, ending within the renewal
 * horizon, ended, queued), every profile's selected lines are bought the way the processor records
 * them, and the chart's figures of each owned reservation (commitmentUses: what a chart point sums)
 * over the days after the plan are compared with and without them. Both are also recomputed by a
 * naive hour loop written here from the rules (groups, units per instance, the first bought used
 * first, a projected hour the mean of the window's hours), which reads nothing the engine computed.
 *
 * Owned savings plans are checked in plans.owned-savings-plans.test.ts (docs/plan-engine.md, New
 * lines and owned savings plans).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitmentUses } from '../../../shared/domain/engine/chart/chart';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment, UsageStream } from '../../../shared/domain/engine/shapes/model';
import {
  boughtCommitments,
  HOUR_MS,
  offersArbitrary,
  ownedArbitrary,
  planInput,
  streamsArbitrary,
  WINDOW_HOURS,
} from './fleet-purchases';

const WINDOW_START = Date.UTC(2025, 0, 1);
/** The days after the plan (2025-01-03T02:00Z): queued ones start on the 8th, ending ones end on the 13th. */
const FIRST_DAY = '2025-01-03';
const LAST_DAY = '2025-01-14';

/** Normalized units of the m5 sizes (a Linux family reservation covers every size in them). */
const M5_UNITS: Readonly<Record<string, number>> = {
  'm5.large': 4,
  'm5.xlarge': 8,
  'm5.2xlarge': 16,
  'm5.4xlarge': 32,
};

/** The oracle's group of a Windows reservation or stream is its exact type; Linux m5 is one family group. */
const groupOf = (instanceType: string, operatingSystem: string | undefined) =>
  operatingSystem === 'Windows' ? `windows:${instanceType}` : 'linux:m5';
const unitsOf = (instanceType: string, operatingSystem: string | undefined) =>
  operatingSystem === 'Windows' ? 1 : (M5_UNITS[instanceType] as number);

/**
 * Per day of [FIRST_DAY, LAST_DAY], per reservation: the mean share of its units used over the
 * hours it applies in (NaN when none). Every hour after the window is the window's mean hour: the
 * reservations in force then applied to each window hour's usage, their shares averaged.
 */
function oracleUtilization(streams: readonly UsageStream[], owned: readonly ExistingCommitment[]) {
  const demandAt = Array.from({ length: WINDOW_HOURS }, (_, hour) => {
    const demand = new Map<string, number>();
    for (const each of streams) {
      const group = groupOf(each.instanceType, each.operatingSystem);
      const units = (each.usage[hour] as number) * unitsOf(each.instanceType, each.operatingSystem);
      demand.set(group, (demand.get(group) ?? 0) + units);
    }
    return demand;
  });
  const reservations = owned
    .map((entry, position) => ({ entry, position }))
    .filter(({ entry }) => entry.instanceType !== null)
    .sort(
      (a, b) =>
        Math.ceil(Date.parse(a.entry.purchasedAt ?? a.entry.start) / HOUR_MS) -
          Math.ceil(Date.parse(b.entry.purchasedAt ?? b.entry.start) / HOUR_MS) || a.position - b.position,
    );
  const first = Date.parse(`${FIRST_DAY}T00:00:00Z`);
  const days = (Date.parse(`${LAST_DAY}T00:00:00Z`) - first) / (24 * HOUR_MS) + 1;
  const meanHours = new Map<string, Map<ExistingCommitment, number>>();
  return Array.from({ length: days }, (_, day) => {
    const shares = new Map<ExistingCommitment, { used: number; hours: number }>();
    for (let hour = 0; hour < 24; hour++) {
      const at = first + (day * 24 + hour) * HOUR_MS;
      // In force in the hour when it started by the hour's start (whole hours of the chart).
      const inForce = reservations.filter(({ entry }) => {
        const starts = Math.ceil(Date.parse(entry.start) / HOUR_MS) * HOUR_MS;
        const ends = Math.ceil(Date.parse(entry.end) / HOUR_MS) * HOUR_MS;
        return at >= starts && at < ends && at >= WINDOW_START + WINDOW_HOURS * HOUR_MS;
      });
      // The mean hour of a set in force is the same in every hour it is in force: worked once.
      const key = inForce.map(({ position }) => position).join(',');
      const known = meanHours.get(key);
      const usedShare = known ?? new Map<ExistingCommitment, number>();
      meanHours.set(key, usedShare);
      for (const demand of known ? [] : demandAt) {
        const left = new Map(demand);
        for (const { entry } of inForce) {
          const type = entry.instanceType as string;
          const group = groupOf(type, entry.operatingSystem);
          const capacity = entry.quantity * unitsOf(type, entry.operatingSystem);
          const available = left.get(group) ?? 0;
          const used = Math.min(capacity, available);
          left.set(group, available - used);
          usedShare.set(entry, (usedShare.get(entry) ?? 0) + used / capacity / WINDOW_HOURS);
        }
      }
      for (const { entry } of inForce) {
        const tally = shares.get(entry) ?? { used: 0, hours: 0 };
        shares.set(entry, { used: tally.used + (usedShare.get(entry) ?? 0), hours: tally.hours + 1 });
      }
    }
    return shares;
  });
}

const fleetArbitrary = fc.record({
  streams: streamsArbitrary(['windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge']),
  offers: offersArbitrary(['windows-m5', 'windows-r5', 'linux-m5', 'spend']),
  owned: ownedArbitrary,
});

const chart = (streams: readonly UsageStream[], commitments: readonly ExistingCommitment[]) =>
  commitmentUses({
    window: { start: new Date(WINDOW_START).toISOString(), hours: WINDOW_HOURS },
    streams,
    commitments,
    offers: [],
    startDate: FIRST_DAY,
    endDate: LAST_DAY,
    today: FIRST_DAY,
  });

describe('buying a plan and charting what the org owns', () => {
  it('never lowers the utilization of an owned reservation, as the chart reports it and by hand', () => {
    fc.assert(
      fc.property(fleetArbitrary, ({ streams, offers, owned }) => {
        // Prepare
        const first = computePlans(planInput(streams, offers, owned));
        const before = chart(streams, owned);
        const byHandBefore = oracleUtilization(streams, owned);

        for (const { plan, lineItems, profile } of first.plans) {
          // Act
          const bought = boughtCommitments(plan.id, lineItems, offers);
          const after = chart(streams, [...owned, ...bought]);
          const byHandAfter = oracleUtilization(streams, [...owned, ...bought]);

          // Assess: per day and owned reservation, the chart's figure is the hand one, and not below it before.
          after.forEach(({ date, uses }, day) => {
            for (const entry of owned) {
              const use = uses.find((each) => each.commitment === entry);
              const was = before[day]?.uses.find((each) => each.commitment === entry);
              const hand = byHandAfter[day]?.get(entry);
              const handBefore = byHandBefore[day]?.get(entry);
              const label = `${profile.name}, ${entry.id} on ${date}`;
              if (!use || !was || use.cost === 0) {
                expect(hand, label).toBeUndefined();
                continue;
              }
              const utilization = use.usedCost / use.cost;
              const previous = was.usedCost / was.cost;
              expect(Math.abs(utilization - (hand?.used ?? 0) / (hand?.hours ?? 1)), label).toBeLessThan(
                1e-9,
              );
              expect(
                Math.abs(previous - (handBefore?.used ?? 0) / (handBefore?.hours ?? 1)),
                label,
              ).toBeLessThan(1e-9);
              expect(utilization, label).toBeGreaterThanOrEqual(previous - 1e-12);
            }
          });
        }
      }),
      { numRuns: 100 },
    );
  });
});
