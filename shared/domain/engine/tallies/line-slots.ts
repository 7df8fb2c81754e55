/**
 * Where each profile's new lines cover each stream (line-tallies.ts, layered-tallies.ts): per stream,
 * the line, the tier and the position in its pool, and for a stream a stack of several layers covers
 * (layers.ts) all of them, bottom first.
 */
import type { CoveredShares } from '../groups/coverage-pool';
import type { LineCoverage } from './line-coverage';

/** Where a line covers a stream: the line's index, the stream's tier and position in its pool. */
export interface Slot {
  readonly line: number;
  readonly tier: number;
  readonly position: number;
}

/**
 * Per stream: which of the lines covers it (-1: none), in which tier and at which pool position;
 * for a stream several layers cover, all of them, bottom first (`layered`).
 */
export interface Slots {
  readonly line: Int32Array;
  readonly tier: Int32Array;
  readonly position: Int32Array;
  readonly layered: Map<number, Slot[]>;
}

/** `coverages` in application order (a stack's layers bottom first). */
export function slotsOf(coverages: readonly LineCoverage[], streams: number): Slots {
  const slots = {
    line: new Int32Array(streams).fill(-1),
    tier: new Int32Array(streams),
    position: new Int32Array(streams),
    layered: new Map<number, Slot[]>(),
  };
  coverages.forEach((coverage, line) => {
    coverage.line.pool.tiers.forEach((tier, j) => {
      for (let m = 0; m < tier.members.length; m++) {
        const s = tier.members[m] as number;
        const slot = { line, tier: j, position: tier.offset + m };
        if (slots.line[s] === -1) {
          slots.line[s] = line;
          slots.tier[s] = j;
          slots.position[s] = slot.position;
          continue;
        }
        const all = slots.layered.get(s);
        if (all) all.push(slot);
        else
          slots.layered.set(s, [
            {
              line: slots.line[s] as number,
              tier: slots.tier[s] as number,
              position: slots.position[s] as number,
            },
            slot,
          ]);
      }
    });
  });
  return slots;
}

/** Every slot of stream s, bottom layer first. */
export function slotList(slots: Slots, s: number): readonly Slot[] {
  const all = slots.layered.get(s);
  if (all) return all;
  const line = slots.line[s] as number;
  return line === -1 ? [] : [{ line, tier: slots.tier[s] as number, position: slots.position[s] as number }];
}

/** What one profile's tallies need: its new lines, and the shares its reservations cover (new or kept). */
export interface ProfileLines {
  readonly reservations: readonly LineCoverage[];
  readonly savingsPlans: readonly LineCoverage[];
  /** Per stream: the shares of its residual the profile's reservation layers cover, bottom first. */
  readonly covered: CoveredShares;
}

/** One profile's place in a pass: where its lines cover each stream, and their share arrays. */
export interface ProfileSlots {
  readonly profile: ProfileLines;
  readonly reserved: Slots;
  readonly spent: Slots;
}
