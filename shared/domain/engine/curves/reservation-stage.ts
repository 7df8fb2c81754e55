/**
 * The reservations of one profile after another, over the whole window. A group whose lines (offers
 * and quantities, layer by layer) are the same as in the previous profile keeps that profile's
 * coverage; only groups whose lines changed are covered again (their tallies are left to
 * tallyLines). Nothing is copied: what the reservations leave of a stream is its residual after
 * existing commitments less the shares of it their layers covered, one after the other
 * (CoveredShares), read where it is needed.
 */
import { type CoveragePool, type CoveredShares, tierAmounts } from '../groups/coverage-pool';
import type { Portfolio } from '../portfolio/portfolio';
import { type LineCoverage, lineShares } from '../tallies/line-coverage';
import { leftoverAmounts } from './layers';
import { applicationOrder, type PlannedLine } from './planned-line';

export interface ReservationResult {
  readonly coverages: readonly LineCoverage[];
  /** The coverages new in this profile, their tallies still to fill. */
  readonly fresh: readonly LineCoverage[];
  /** Per group pool with lines: their coverages, from the bottom layer up. */
  readonly coverageOf: ReadonlyMap<CoveragePool, readonly LineCoverage[]>;
  /** Per stream: per layer, the share of what the layers below left that it covered in each hour. */
  readonly covered: CoveredShares;
  /** Group pools covered differently than in the previous profile (every covered one the first time). */
  readonly changedPools: ReadonlySet<CoveragePool>;
}

export interface ReservationStage {
  apply(lines: readonly PlannedLine[]): ReservationResult;
}

const sameStack = (a: readonly LineCoverage[], b: readonly PlannedLine[]) =>
  a.length === b.length &&
  a.every(({ line }, k) => line.offer === b[k]?.offer && line.quantity === b[k]?.quantity);

/** Per tier of a group pool, the shares of its layers, bottom first. */
export function layerSharesOf(coverages: readonly LineCoverage[], tier: number): Float64Array[] {
  return coverages.map((coverage) => coverage.shares[tier] as Float64Array);
}

export function reservationStage(portfolio: Portfolio): ReservationStage {
  let previous = new Map<CoveragePool, readonly LineCoverage[]>();
  let covered: CoveredShares = new Array(portfolio.streams.length).fill(undefined);
  return {
    apply(lines) {
      const changedPools = new Set<CoveragePool>();
      const fresh: LineCoverage[] = [];
      const current = new Map<CoveragePool, readonly LineCoverage[]>();
      const shares = covered.slice();
      const stacks = new Map<CoveragePool, PlannedLine[]>();
      for (const line of [...lines].sort(applicationOrder)) {
        const stack = stacks.get(line.pool);
        if (stack) stack.push(line);
        else stacks.set(line.pool, [line]);
      }
      for (const [pool, stack] of stacks) {
        const before = previous.get(pool);
        if (before && sameStack(before, stack)) {
          current.set(
            pool,
            before.map((coverage, k) => ({ ...coverage, line: stack[k] as PlannedLine })),
          );
          continue;
        }
        // Groups are disjoint: each stack reads its members' residual after existing commitments.
        let below: { amounts: readonly Float64Array[]; shares: readonly Float64Array[] } | null = null;
        const coverages = stack.map((line) => {
          const amounts =
            line.amounts ??
            (below
              ? leftoverAmounts(below.amounts, below.shares)
              : tierAmounts(pool, portfolio.residual, { start: 0, end: portfolio.hours }));
          const coverage = lineShares(line, amounts, portfolio.hours);
          below = { amounts, shares: coverage.shares };
          return coverage;
        });
        current.set(pool, coverages);
        fresh.push(...coverages);
        changedPools.add(pool);
        pool.tiers.forEach((tier, j) => {
          const layers = layerSharesOf(coverages, j);
          for (const s of tier.members) shares[s] = layers;
        });
      }
      for (const pool of previous.keys()) {
        if (current.has(pool)) continue;
        for (const s of pool.members) shares[s] = undefined;
        changedPools.add(pool);
      }
      previous = current;
      covered = shares;
      return {
        // In application order, as the resource-matches endpoint applies them.
        coverages: [...current.values()].flat().sort((a, b) => applicationOrder(a.line, b.line)),
        fresh,
        coverageOf: current,
        covered: shares,
        changedPools,
      };
    },
  };
}
