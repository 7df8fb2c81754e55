/**
 * A savings-plan pool's tier amounts summed per coverage group instead of per stream.
 *
 * A cell is the streams of one spend tier j (one discount d_j) that share one group tier (g, k). One
 * on-demand dollar takes 1 / v_j = 1 - d_j commitment dollars, and the reservations of a profile
 * cover the same share gs_gk[t] of every stream of a group tier, so the spend pool's amounts after
 * the reservations are
 *   a_j[t] = (1 / v_j) sum_{cells of j} (D[t] - D[t] gs[t]),
 * D the cell's on-demand dollars per hour after existing commitments. When a cell is its whole group
 * tier, D = v_gk A_gk[t] from the group's own tier amounts: no pass over the streams at all. The
 * amounts equal the per-stream sums up to rounding; plans and resource matches both use them, so a
 * line covers the same in both.
 */

import type { HourRange } from '../shapes/window-time';
import type { CoveragePool, PoolTier } from './coverage-pool';

export interface SpendCell {
  /** The group's pool and the tier of it whose streams the cell holds. */
  readonly group: CoveragePool;
  readonly groupTier: number;
  /** On-demand dollars per hour of the cell's residual after existing commitments, over the window. */
  readonly dollars: Float64Array;
}

export interface SpendCells {
  /** Per tier of the spend pool, its cells. */
  readonly tiers: readonly (readonly SpendCell[])[];
  /** The group pools the cells come from (a spend pool's amounts change only when theirs are covered differently). */
  readonly groups: ReadonlySet<CoveragePool>;
}

/** A group tier: where a stream sits among the coverage groups. */
export interface GroupPlace {
  readonly group: CoveragePool;
  readonly groupTier: number;
}

export interface CellSources {
  /** Every group tier, and per stream the index of its own. */
  readonly places: readonly GroupPlace[];
  readonly placeOf: Int32Array;
  /** v_gk A_gk[t]: the on-demand dollars per hour of a whole group tier. */
  groupDollars(place: number): Float64Array;
  /** Per stream: on-demand price and residual after existing commitments. */
  readonly prices: Float64Array;
  readonly residual: readonly Float64Array[];
  readonly hours: number;
}

export function spendCells(pool: CoveragePool, sources: CellSources): SpendCells {
  const groups = new Set<CoveragePool>();
  const counts = new Int32Array(sources.places.length);
  const tiers = pool.tiers.map((tier) => {
    // The group tiers of the tier's members, in order of first appearance, and how many of each.
    const touched: number[] = [];
    for (const s of tier.members) {
      const place = sources.placeOf[s] as number;
      if (counts[place] === 0) touched.push(place);
      counts[place] = (counts[place] as number) + 1;
    }
    return touched.map((place): SpendCell => {
      const { group, groupTier } = sources.places[place] as GroupPlace;
      groups.add(group);
      const count = counts[place] as number;
      counts[place] = 0;
      const dollars =
        count === group.tiers[groupTier]?.members.length
          ? sources.groupDollars(place)
          : streamDollars(
              tier.members.filter((s) => sources.placeOf[s] === place),
              sources,
            );
      return { group, groupTier, dollars };
    });
  });
  return { tiers, groups };
}

/** D[t] = sum_s p_s R_s[t] over some streams of a group tier. */
function streamDollars(streams: ArrayLike<number>, sources: CellSources): Float64Array {
  const dollars = new Float64Array(sources.hours);
  for (let k = 0; k < streams.length; k++) {
    const s = streams[k] as number;
    const usage = sources.residual[s] as Float64Array;
    const price = sources.prices[s] as number;
    for (let t = 0; t < dollars.length; t++)
      dollars[t] = (dollars[t] as number) + price * (usage[t] as number);
  }
  return dollars;
}

/** amount[t] += D[first + t] - D[first + t] gs[t]: a cell whose group tier one reservation covers. */
function addUncovered(amount: Float64Array, dollars: Float64Array, share: Float64Array, first: number): void {
  for (let t = 0; t < amount.length; t++) {
    const value = dollars[first + t] as number;
    amount[t] = (amount[t] as number) + (value - value * (share[t] as number));
  }
}

/** addUncovered for a group tier several reservation layers cover: each takes its share of what the ones below left. */
function addUncoveredByLayers(
  amount: Float64Array,
  dollars: Float64Array,
  shares: readonly Float64Array[],
  first: number,
): void {
  for (let t = 0; t < amount.length; t++) {
    let value = dollars[first + t] as number;
    for (let k = 0; k < shares.length; k++)
      value = value - value * ((shares[k] as Float64Array)[t] as number);
    amount[t] = (amount[t] as number) + value;
  }
}

/**
 * The reservations' shares of a group: per layer (bottom first), per group tier, per hour of the
 * range; undefined when no reservation covers the group.
 */
export type GroupShares = (group: CoveragePool) => readonly (readonly Float64Array[])[] | undefined;

/** The shares of one group tier, per layer; undefined when none covers it. */
function tierShares(covered: GroupShares, cell: SpendCell): Float64Array[] | undefined {
  const layers = covered(cell.group);
  return layers?.map((shares) => shares[cell.groupTier] as Float64Array);
}

/** amount[t] += D[first + t]: a cell no reservation covers. */
function addAll(amount: Float64Array, dollars: Float64Array, first: number): void {
  for (let t = 0; t < amount.length; t++) amount[t] = (amount[t] as number) + (dollars[first + t] as number);
}

/**
 * The pool's tier amounts over a range of hours after the reservations: `covered(group)` is the
 * reservations' shares per layer, group tier and hour of the range, undefined when none covers the group.
 * Hour-local: each hour's amounts are the same whatever the range. The hour loops are functions of
 * their own, called per cell: inside a callback they compiled to code several times slower.
 */
export function cellAmounts(
  pool: CoveragePool,
  cells: SpendCells,
  covered: GroupShares,
  range: HourRange,
): Float64Array[] {
  const length = range.end - range.start;
  const first = range.start;
  const block = new Float64Array(pool.tiers.length * length);
  const amounts: Float64Array[] = [];
  for (let j = 0; j < pool.tiers.length; j++) {
    const amount = block.subarray(j * length, (j + 1) * length);
    for (const cell of cells.tiers[j] ?? []) {
      const shares = tierShares(covered, cell);
      if (!shares) addAll(amount, cell.dollars, first);
      else if (shares.length === 1) addUncovered(amount, cell.dollars, shares[0] as Float64Array, first);
      else addUncoveredByLayers(amount, cell.dollars, shares, first);
    }
    // In commitment dollars: 1 / v_j per on-demand dollar.
    const value = (pool.tiers[j] as PoolTier).value;
    for (let t = 0; t < length; t++) amount[t] = (amount[t] as number) / value;
    amounts.push(amount);
  }
  return amounts;
}

/**
 * Cov(infinity): the on-demand dollars per hour of the pool's residual after the reservations
 * (`covered` as in cellAmounts), the most any commitment level covers. `sums` remembers each cell's
 * sum for one set of reservations: cells of a whole group tier recur in many pools.
 */
export function coverableValue(
  cells: SpendCells,
  covered: GroupShares,
  hours: number,
  sums: Map<Float64Array, number>,
): number {
  if (hours === 0) return 0;
  let total = 0;
  for (const tier of cells.tiers) {
    for (const cell of tier) {
      const dollars = cell.dollars;
      let sum = sums.get(dollars);
      if (sum === undefined) {
        sum = 0;
        const shares = tierShares(covered, cell);
        if (shares) {
          for (let t = 0; t < hours; t++) {
            let value = dollars[t] as number;
            for (let k = 0; k < shares.length; k++)
              value = value - value * ((shares[k] as Float64Array)[t] as number);
            sum += value;
          }
        } else {
          for (let t = 0; t < hours; t++) sum += dollars[t] as number;
        }
        sums.set(dollars, sum);
      }
      total += sum;
    }
  }
  return total / hours;
}
