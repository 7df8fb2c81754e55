/**
 * A coverage pool: the streams one commitment can cover, each with the pool units one unit of its
 * usage takes (`weight`) and the on-demand dollars one pool unit of it is worth (`value`).
 *
 * - Reservation of a group: weight = the stream's size in group units, value = p / weight.
 * - Savings plan: a pool unit is one dollar of commitment; weight = p * (1 - discount) (commitment
 *   dollars per unit of usage), value = 1 / (1 - discount) (on-demand dollars per commitment dollar).
 *
 * Members of equal value form a tier. Each hour, q units cover the tiers highest value first (for a
 * savings plan: highest discount first), and within a tier every member in proportion to its
 * residual usage. That allocation is hour-local: covering a range of hours is the same as covering
 * each hour alone.
 */

import type { HourRange } from '../shapes/window-time';
import { sumOverHours } from './hour-sums';

export interface PoolTier {
  readonly value: number;
  /** Position of the tier's first member in the pool's member order. */
  readonly offset: number;
  readonly members: Int32Array;
  readonly weights: Float64Array;
}

export interface CoveragePool {
  /** Highest value first. */
  readonly tiers: readonly PoolTier[];
  /** Stream indices of all members, tier after tier (a member's position indexes tallies). */
  readonly members: Int32Array;
}

/** Members in tiers of equal value, highest first; within a tier, in the order given. */
export function buildPool(
  members: ArrayLike<number>,
  weights: ArrayLike<number>,
  values: ArrayLike<number>,
): CoveragePool {
  const byValue = new Map<number, number[]>();
  for (let position = 0; position < members.length; position++) {
    const value = values[position] as number;
    const positions = byValue.get(value);
    if (positions) positions.push(position);
    else byValue.set(value, [position]);
  }
  const sortedMembers = new Int32Array(members.length);
  const sortedWeights = new Float64Array(members.length);
  const tiers: PoolTier[] = [];
  let start = 0;
  for (const positions of [...byValue.values()].sort(
    (a, b) => (values[b[0] as number] as number) - (values[a[0] as number] as number),
  )) {
    for (let k = 0; k < positions.length; k++) {
      const position = positions[k] as number;
      sortedMembers[start + k] = members[position] as number;
      sortedWeights[start + k] = weights[position] as number;
    }
    const end = start + positions.length;
    tiers.push({
      value: values[positions[0] as number] as number,
      offset: start,
      members: sortedMembers.subarray(start, end),
      weights: sortedWeights.subarray(start, end),
    });
    start = end;
  }
  return { tiers, members: sortedMembers };
}

/**
 * Per stream, the shares of its usage the layers of a stack already covered in each hour of a range,
 * bottom layer first, each a share of what the ones below left (undefined: none): the usage left is
 * then `u - u * share` taken layer after layer, exactly what writing it out would store. Lets
 * reservations be followed by savings plans without copying what the reservations leave.
 */
export type CoveredShares = readonly (readonly Float64Array[] | undefined)[];

/** Per tier, its residual usage in pool units for each hour of the range: a_j[t] = sum_s w_s res_s[t]. */
export function tierAmounts(
  pool: CoveragePool,
  residual: readonly Float64Array[],
  range: HourRange,
): Float64Array[] {
  const length = range.end - range.start;
  const first = range.start;
  const block = new Float64Array(pool.tiers.length * length);
  const amounts: Float64Array[] = [];
  for (const tier of pool.tiers) {
    const amount = block.subarray(amounts.length * length, (amounts.length + 1) * length);
    const { members, weights } = tier;
    let m = 0;
    // Four members per pass over the hours: the same additions in the same order as one member at
    // a time, with a quarter of the reads and writes of the amounts.
    for (; m + 3 < members.length; m += 4) {
      const usageA = residual[members[m] as number] as Float64Array;
      const usageB = residual[members[m + 1] as number] as Float64Array;
      const usageC = residual[members[m + 2] as number] as Float64Array;
      const usageD = residual[members[m + 3] as number] as Float64Array;
      const weightA = weights[m] as number;
      const weightB = weights[m + 1] as number;
      const weightC = weights[m + 2] as number;
      const weightD = weights[m + 3] as number;
      for (let t = 0; t < length; t++) {
        const at = first + t;
        amount[t] =
          (amount[t] as number) +
          weightA * (usageA[at] as number) +
          weightB * (usageB[at] as number) +
          weightC * (usageC[at] as number) +
          weightD * (usageD[at] as number);
      }
    }
    for (; m < members.length; m++) {
      const usage = residual[members[m] as number] as Float64Array;
      const weight = weights[m] as number;
      for (let t = 0; t < length; t++)
        amount[t] = (amount[t] as number) + weight * (usage[first + t] as number);
    }
    amounts.push(amount);
  }
  return amounts;
}

/** Per pool member (indexed by position in the pool), sums over the hours of a range of what a cover did. */
export interface CoverTally {
  /** Residual units before the cover. */
  readonly before: Float64Array;
  /** Units covered. */
  readonly covered: Float64Array;
}

export interface CoverOptions {
  /** Pool units available in each hour of the range (one number: the same every hour). */
  readonly quantity: number | Float64Array;
  /** tierAmounts of the residual, when already computed. */
  readonly amounts?: readonly Float64Array[];
  /**
   * Where to read the residual from when not from `residual` itself: the reduced residual is then
   * written to `residual` (saves copying it first).
   */
  readonly from?: readonly Float64Array[];
  /** Only tally: leave the residual as it is (for lines nothing is applied after). */
  readonly readOnly?: boolean;
  readonly tally?: CoverTally;
}

export interface CoverResult {
  /** Pool units used, summed over the range. */
  readonly used: number;
  /** On-demand dollars covered, summed over the range. */
  readonly coveredValue: number;
  /** Per tier, per hour of the range: the share of the tier's residual covered (CoveredShares). */
  readonly shares: readonly Float64Array[];
}

/**
 * What `quantity` pool units do to a pool whose tiers hold `amounts` in each of `length` hours: the
 * tiers highest value first, each hour alone. `hourly` adds, per hour, the units used and value covered.
 */
export function poolShares(
  pool: CoveragePool,
  amounts: readonly Float64Array[],
  quantity: number | Float64Array,
  length: number,
  hourly?: { readonly used: Float64Array; readonly coveredValue: Float64Array },
): CoverResult {
  let usedTotal = 0;
  let valueTotal = 0;
  // Share of each tier's residual covered in each hour, stacking the tiers highest value first
  // (one block for all tiers: fewer, larger allocations keep the garbage collector quiet).
  const block = new Float64Array(pool.tiers.length * length);
  const shares = pool.tiers.map((_, j) => block.subarray(j * length, (j + 1) * length));
  for (let t = 0; t < length; t++) {
    let left = typeof quantity === 'number' ? quantity : (quantity[t] as number);
    for (let j = 0; j < pool.tiers.length && left > 0; j++) {
      const amount = (amounts[j] as Float64Array)[t] as number;
      if (amount <= 0) continue;
      const covered = Math.min(amount, left);
      const value = covered * (pool.tiers[j] as PoolTier).value;
      left -= covered;
      (shares[j] as Float64Array)[t] = covered === amount ? 1 : covered / amount;
      usedTotal += covered;
      valueTotal += value;
      if (hourly) {
        hourly.used[t] = (hourly.used[t] as number) + covered;
        hourly.coveredValue[t] = (hourly.coveredValue[t] as number) + value;
      }
    }
  }
  return { used: usedTotal, coveredValue: valueTotal, shares };
}

/** Covers the pool hour by hour over the range, subtracting the covered units from `residual`. */
export function coverPool(
  pool: CoveragePool,
  residual: readonly Float64Array[],
  range: HourRange,
  options: CoverOptions,
): CoverResult {
  const length = range.end - range.start;
  const amounts = options.amounts ?? tierAmounts(pool, options.from ?? residual, range);
  const result = poolShares(pool, amounts, options.quantity, length);
  const { shares } = result;
  pool.tiers.forEach((tier, j) => {
    const share = shares[j] as Float64Array;
    let least = 1;
    let most = 0;
    for (let t = 0; t < length; t++) {
      least = Math.min(least, share[t] as number);
      most = Math.max(most, share[t] as number);
    }
    if (least < 1 && most > 0) applyShares(tier, share, residual, range, options);
    else applyWholeShare(tier, most > 0, residual, range, options);
  });
  return result;
}

function addTally(tally: CoverTally | undefined, position: number, before: number, covered: number): void {
  if (!tally) return;
  tally.before[position] = (tally.before[position] as number) + before;
  tally.covered[position] = (tally.covered[position] as number) + covered;
}

/** applyShares when the tier is covered entirely in every hour of the range, or in none. */
function applyWholeShare(
  tier: PoolTier,
  covers: boolean,
  residual: readonly Float64Array[],
  range: HourRange,
  options: CoverOptions,
): void {
  for (let m = 0; m < tier.members.length; m++) {
    const stream = tier.members[m] as number;
    const usage = (options.from ?? residual)[stream] as Float64Array;
    const before = sumOverHours(usage, range.start, range.end);
    if (!options.readOnly) {
      const left = residual[stream] as Float64Array;
      if (covers) left.fill(0, range.start, range.end);
      else if (left !== usage) left.set(usage.subarray(range.start, range.end), range.start);
    }
    addTally(options.tally, tier.offset + m, before, covers ? before : 0);
  }
}

function applyShares(
  tier: PoolTier,
  share: Float64Array,
  residual: readonly Float64Array[],
  range: HourRange,
  options: CoverOptions,
): void {
  const length = range.end - range.start;
  const first = range.start;
  for (let m = 0; m < tier.members.length; m++) {
    const stream = tier.members[m] as number;
    const usage = (options.from ?? residual)[stream] as Float64Array;
    let before = 0;
    let covered = 0;
    if (!options.readOnly) {
      const left = residual[stream] as Float64Array;
      for (let t = 0; t < length; t++) {
        const units = usage[first + t] as number;
        const cover = units * (share[t] as number);
        before += units;
        covered += cover;
        left[first + t] = units - cover;
      }
    } else {
      for (let t = 0; t < length; t++) {
        const units = usage[first + t] as number;
        before += units;
        covered += units * (share[t] as number);
      }
    }
    addTally(options.tally, tier.offset + m, before, covered);
  }
}
