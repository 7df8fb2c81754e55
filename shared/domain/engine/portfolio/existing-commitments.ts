/**
 * Existing commitments, applied to usage before anything is planned (docs/plan-engine.md), hour by hour and
 * only in hours t with start <= start of hour t < end.
 *
 * - A reservation covers the usage of its platform, tenancy, engine and deployment in its coverage
 *   groups' units (reserved-scope.ts): quantity x units per instance, highest on-demand price per
 *   unit first; zonal reservations before regional ones. Under `organization` sharing the
 *   group spans every account of the org, so an account's reservation covers the others' usage too.
 * - A spend commitment covers `hourlyCommitment` dollars per hour of the eligible usage it is
 *   shared with (every account of the org under `organization` sharing, else its own account's)
 *   at its plan rates, highest discount first. The commitment does not carry its rates: they are the
 *   rates of the catalog offer it was bought from (commitment-offer.ts: contract type, payment
 *   option, an instance plan's family and region, nearest term). Without such an offer it covers
 *   nothing (its cost still counts).
 * All reservations apply before all spend commitments (as providers bill them); spend commitments
 * of type `instance_plans` before the others. Commitments sharing a pool cover it together, each
 * hour with the sum of the active quantities (the same allocation as one after the other), and
 * split what was used owned first (docs/plan-engine.md, Owned first): in the order they were bought,
 * each takes min(its quantity, what the ones bought before left), so a commitment bought later
 * never lowers the use of one owned before it; the senior one's units take the highest-value
 * usage. A stream is attributed the cost of the commitment units it used, each unit at the rate of
 * the commitment it belongs to; the cost of unused units is attributed to no stream.
 */

import { type CoveragePool, type PoolTier, poolShares, tierAmounts } from '../groups/coverage-pool';
import type { ResidualArena } from '../groups/residual-arena';
import type { HourRange } from '../shapes/window-time';
import type { BookedCommitment, CommitmentBook } from './commitment-book';

/** One pool's cover of a stream: the share of its residual covered each hour, at what cost per unit. */
export interface AttributedCover {
  readonly rank: number;
  readonly share: Float64Array;
  /** Pool units per unit of the stream's usage. */
  readonly weight: number;
  readonly costPerUnit: Float64Array;
}

export interface CommitmentCoverage {
  /** Per commitment, per hour: pool units it covered. */
  readonly used: readonly Float64Array[];
  /** Per commitment, per hour: on-demand dollars it covered. */
  readonly coveredValue: readonly Float64Array[];
  /**
   * Per stream, per hour: the usage left on demand. Streams nothing covered keep the input's
   * array (never write to it); the others have their own.
   */
  readonly residual: readonly Float64Array[];
  /** Per stream: the residual summed over the hours. */
  readonly residualTotals: Float64Array;
  /** The commitment cost attributed to a stream, summed over a range of hours. */
  attributedCost(stream: number, range: HourRange): number;
  /** The pools that covered some of the stream, in the order they applied (owned-room.ts). */
  coversOf(stream: number): readonly AttributedCover[] | undefined;
}

/**
 * One pool's cover of one stream: writes what it leaves of `source` to `left` (the same array when
 * the stream already has its own), and to `sums` the residual left (at 0) and the cost of the units
 * covered (at 1). A function of its own, called per stream, so that the engine compiles this loop
 * early and once for every pool; `sums` is the caller's, reused for every stream.
 */
function coverStream(
  sums: Float64Array,
  source: Float64Array,
  left: Float64Array,
  share: Float64Array,
  weight: number,
  costPerUnit: Float64Array,
  hours: number,
): void {
  let total = 0;
  let cost = 0;
  for (let t = 0; t < hours; t++) {
    const units = source[t] as number;
    const cover = units * (share[t] as number);
    const rest = units - cover;
    left[t] = rest;
    total += rest;
    // No test for cover > 0: an hour it covers nothing adds an exact zero (costs are finite), and
    // the test mispredicts as usage starts and stops.
    cost += cover * weight * (costPerUnit[t] as number);
  }
  sums[0] = total;
  sums[1] = cost;
}

/** On-demand dollars of the pool units [from, to) of hour t, counted from the highest-value tier down. */
function valueOfUnits(
  pool: CoveragePool,
  amounts: readonly Float64Array[],
  t: number,
  from: number,
  to: number,
) {
  let value = 0;
  let top = 0;
  for (let j = 0; j < pool.tiers.length && top < to; j++) {
    const bottom = top + ((amounts[j] as Float64Array)[t] as number);
    const overlap = Math.min(bottom, to) - Math.max(top, from);
    if (overlap > 0) value += overlap * (pool.tiers[j] as PoolTier).value;
    top = bottom;
  }
  return value;
}

/**
 * Splits what a pool's commitments used, hour by hour, in their order (owned first): each
 * takes min(its quantity, what is left of the units used), the senior ones the highest-value units.
 * Writes each commitment's units used and value covered to `into`; returns, per hour, the cost per
 * unit used (each unit at the rate of the commitment it belongs to).
 */
function splitOwnedFirst(
  book: CommitmentBook,
  commitments: readonly number[],
  active: readonly HourRange[],
  pool: CoveragePool,
  amounts: readonly Float64Array[],
  pooled: { readonly used: Float64Array; readonly coveredValue: Float64Array },
  hours: number,
  into: { readonly used: readonly Float64Array[]; readonly coveredValue: readonly Float64Array[] },
): Float64Array {
  const cost = new Float64Array(hours);
  const taken = new Float64Array(hours);
  for (const c of commitments) {
    const applies = active[c] as HourRange;
    const { quantity, hourlyCost } = book.commitments[c] as BookedCommitment;
    const used = into.used[c] as Float64Array;
    const covered = into.coveredValue[c] as Float64Array;
    const alone = commitments.length === 1;
    for (let t = applies.start; t < applies.end; t++) {
      const from = taken[t] as number;
      const units = Math.min(quantity, (pooled.used[t] as number) - from);
      if (!(units > 0)) continue;
      used[t] = units;
      covered[t] = alone
        ? (pooled.coveredValue[t] as number)
        : valueOfUnits(pool, amounts, t, from, from + units);
      taken[t] = from + units;
      cost[t] = (cost[t] as number) + (units * hourlyCost) / quantity;
    }
  }
  for (let t = 0; t < hours; t++) {
    const units = taken[t] as number;
    cost[t] = units > 0 ? (cost[t] as number) / units : 0;
  }
  return cost;
}

/**
 * Applies the book, pool after pool, to `usage` (per stream, `hours` long, and its sum over them;
 * never written: a stream gets its own residual, taken from `arena`, the first time a pool covers
 * some of it). `active[c]` is the range of hours commitment c applies in. A stream is attributed
 * the cost of the units it used: used units x cost per unit.
 */
export function applyCommitments(
  book: CommitmentBook,
  usage: readonly Float64Array[],
  usageTotals: Float64Array,
  hours: number,
  active: readonly HourRange[],
  arena: ResidualArena,
): CommitmentCoverage {
  const used = book.commitments.map(() => new Float64Array(hours));
  const coveredValue = book.commitments.map(() => new Float64Array(hours));
  const residual = [...usage];
  const residualTotals = usageTotals.slice();
  const copied = new Uint8Array(usage.length);
  // Per stream, the pools that covered some of it, in order: its attributed cost is computed
  // from them when asked for, instead of being written out hour by hour; over all the hours it is
  // summed while covering, pool by pool.
  const covers: (AttributedCover[] | undefined)[] = new Array(usage.length).fill(undefined);
  const windowCost = new Float64Array(usage.length);
  const range = { start: 0, end: hours };
  const sums = new Float64Array(2);
  for (const { pool, rank, commitments } of book.pools) {
    const quantity = new Float64Array(hours);
    for (const c of commitments) {
      const applies = active[c] as HourRange;
      const units = (book.commitments[c] as BookedCommitment).quantity;
      for (let t = applies.start; t < applies.end; t++) quantity[t] = (quantity[t] as number) + units;
    }
    const result = { used: new Float64Array(hours), coveredValue: new Float64Array(hours) };
    const amounts = tierAmounts(pool, residual, range);
    const { shares } = poolShares(pool, amounts, quantity, hours, result);
    const costPerUnit = splitOwnedFirst(book, commitments, active, pool, amounts, result, hours, {
      used,
      coveredValue,
    });
    for (let j = 0; j < pool.tiers.length; j++) {
      const tier = pool.tiers[j] as PoolTier;
      const share = shares[j] as Float64Array;
      if (!share.some((part) => part > 0)) continue;
      for (let m = 0; m < tier.members.length; m++) {
        const s = tier.members[m] as number;
        const weight = tier.weights[m] as number;
        const source = residual[s] as Float64Array;
        const left = copied[s] ? source : arena.take(hours);
        residual[s] = left;
        copied[s] = 1;
        coverStream(sums, source, left, share, weight, costPerUnit, hours);
        residualTotals[s] = sums[0] as number;
        windowCost[s] = (windowCost[s] as number) + (sums[1] as number);
        const entry = { rank, share, weight, costPerUnit };
        const list = covers[s];
        if (list) list.push(entry);
        else covers[s] = [entry];
      }
    }
  }
  return {
    used,
    coveredValue,
    residual,
    residualTotals,
    coversOf: (stream) => covers[stream],
    attributedCost(stream, hourRange) {
      const list = covers[stream];
      if (!list) return 0;
      if (hourRange.start === 0 && hourRange.end === hours) return windowCost[stream] as number;
      const units = usage[stream] as Float64Array;
      let total = 0;
      for (let t = hourRange.start; t < hourRange.end; t++) {
        // Replays the pools' covers of hour t: what each took of what the previous ones left.
        let left = units[t] as number;
        let cost = 0;
        for (let k = 0; k < list.length; k++) {
          const { share, weight, costPerUnit } = list[k] as AttributedCover;
          const cover = left * (share[t] as number);
          left -= cover;
          if (cover > 0) cost += cover * weight * (costPerUnit[t] as number);
        }
        total += cost;
      }
      return total;
    },
  };
}
