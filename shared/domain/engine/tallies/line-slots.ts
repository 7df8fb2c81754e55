/**
 * Where each profile's new lines cover each stream (line-tallies.ts): per stream, every line covering
 * it, bottom layer first (layers.ts), with the stream's tier and position in the line's pool. Kept in
 * flat typed arrays, the slots of stream s at `start[s]` to `start[s + 1]`: one pass over the
 * streams reads them without an object per slot.
 */
import type { CoveredShares } from '../groups/coverage-pool';
import type { LineCoverage } from './line-coverage';

/** Per stream s, its slots at start[s] .. start[s + 1] - 1: the line's index, the tier, the position. */
export interface Slots {
  readonly start: Int32Array;
  readonly line: Int32Array;
  readonly tier: Int32Array;
  readonly position: Int32Array;
}

/** `coverages` in application order (a stack's layers bottom first). */
export function slotsOf(coverages: readonly LineCoverage[], streams: number): Slots {
  const start = new Int32Array(streams + 1);
  for (const coverage of coverages) {
    for (const tier of coverage.line.pool.tiers) {
      for (let m = 0; m < tier.members.length; m++) {
        const s = tier.members[m] as number;
        start[s + 1] = (start[s + 1] as number) + 1;
      }
    }
  }
  for (let s = 0; s < streams; s++) start[s + 1] = (start[s + 1] as number) + (start[s] as number);
  const size = start[streams] as number;
  const line = new Int32Array(size);
  const tier = new Int32Array(size);
  const position = new Int32Array(size);
  const next = start.slice(0, streams);
  for (let k = 0; k < coverages.length; k++) {
    const tiers = (coverages[k] as LineCoverage).line.pool.tiers;
    for (let j = 0; j < tiers.length; j++) {
      const { members, offset } = tiers[j] as (typeof tiers)[number];
      for (let m = 0; m < members.length; m++) {
        const s = members[m] as number;
        const at = next[s] as number;
        next[s] = at + 1;
        line[at] = k;
        tier[at] = j;
        position[at] = offset + m;
      }
    }
  }
  return { start, line, tier, position };
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
