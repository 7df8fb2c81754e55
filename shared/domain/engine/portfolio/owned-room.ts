/**
 * How much of a pool a new line can take without taking usage an owned commitment billed after it
 * covers (docs/plan-engine.md, New lines and owned savings plans).
 *
 * The provider bills reservations before savings plans, and EC2 Instance Savings Plans before
 * Compute Savings Plans, whoever bought them first. So a new line does not cover what the owned
 * commitments leave (the residual it was sized on): it covers the usage they cover first, and
 * those that come after it in the billing order cover what it leaves. Where that is less than they
 * covered, an owned savings plan is wasted (or moved to usage worth less), and the line saves less
 * than its figures say. A line is therefore limited to the room the owned commitments billed after
 * it leave in every hour: applied before them, it takes of each stream at most what they left
 * of it, so each of them still finds all the usage it covered and covers the same.
 *
 * Per hour t, with the pool's tiers highest value first: a tier whose members the later owned
 * commitments left all of (`left = before`) is room in full, and the line goes on to the next
 * tier; in the first tier where they covered some, the line's allocation (each member in
 * proportion to its usage `before`) stays within every member's `left` up to the tier's amount
 * times the least `left / before` of its members, and it may not go beyond that tier. The room is
 * the least over the hours where such a tier exists; Infinity when none does.
 */
import type { CoveragePool } from '../groups/coverage-pool';
import type { AttributedCover } from './existing-commitments';
import type { Portfolio } from './portfolio';

/** Below this a share left is whole: `left / before` of a stream no later pool covered is 1 up to rounding. */
const WHOLE = 1 - 1e-12;

/**
 * The stream's usage before the owned pools ranked `rank` and after applied (what the ones ranked
 * before it left), replayed from its usage as applyCommitments left it hour by hour; null when no
 * pool of that rank or after covered any of it.
 */
function usageBefore(
  usage: Float64Array,
  covers: readonly AttributedCover[] | undefined,
  rank: number,
  hours: number,
): Float64Array | null {
  if (!covers?.some((cover) => cover.rank >= rank)) return null;
  const before = Float64Array.from(usage);
  for (const cover of covers) {
    if (cover.rank >= rank) break;
    for (let t = 0; t < hours; t++) {
      const units = before[t] as number;
      before[t] = units - units * (cover.share[t] as number);
    }
  }
  return before;
}

/**
 * The largest quantity (in `pool`'s units) of a new line billed just before the owned pools of rank
 * >= `rank` (existing-commitments.ts CommitmentPool.rank: 2 for a reservation, whatever savings plan
 * owns; 3 for an EC2 Instance Savings Plan) that takes no usage they cover. `left[s]`, when given,
 * is what the new lines billed before this one leave of stream s (default: the residual after
 * every owned commitment); a stream's usage before the later owned pools is then that `left` plus
 * what they covered.
 */
export function roomBeforeOwned(
  portfolio: Portfolio,
  pool: CoveragePool,
  rank: number,
  left: (stream: number) => Float64Array = (stream) => portfolio.residual[stream] as Float64Array,
): number {
  const { hours, coverage, streams, residual } = portfolio;
  // In the pool's member order (tier after tier): per member, its usage before the later owned
  // pools (undefined when they covered none of it), what they left of it, and what the new lines
  // before this one leave.
  const befores: (Float64Array | undefined)[] = [];
  let later = false;
  for (const s of pool.members) {
    const before = usageBefore(streams[s]?.usage as Float64Array, coverage.coversOf(s), rank, hours);
    befores.push(before ?? undefined);
    if (before) later = true;
  }
  if (!later) return Number.POSITIVE_INFINITY;
  const owned = Array.from(pool.members, (s) => residual[s] as Float64Array);
  const lefts = Array.from(pool.members, (s) => left(s));
  let room = Number.POSITIVE_INFINITY;
  for (let t = 0; t < hours && room > 0; t++) {
    let units = 0;
    for (const tier of pool.tiers) {
      let amount = 0;
      let least = 1;
      for (let m = 0; m < tier.members.length; m++) {
        const k = tier.offset + m;
        const weight = tier.weights[m] as number;
        const rest = (lefts[k] as Float64Array)[t] as number;
        const before = befores[k];
        if (!before) {
          amount += weight * rest;
          continue;
        }
        // Its usage before the later pools, less what the new lines before this one took of the
        // residual (they take within it): the later pools cover what they covered of it, and
        // leave `rest`.
        const usage = (before[t] as number) - (((owned[k] as Float64Array)[t] as number) - rest);
        if (!(usage > 0)) continue;
        amount += weight * usage;
        const share = rest / usage;
        if (share < least) least = share;
      }
      if (least < WHOLE) {
        units += least * amount;
        if (units < room) room = units;
        break;
      }
      if (units >= room) break;
      units += amount;
    }
  }
  return room;
}
