/**
 * The reservations of one profile after another, over the whole window. A group whose line (offer
 * and quantity) is the same as in the previous profile keeps that profile's coverage; only groups
 * whose line changed are covered again (their tallies are left to tallyLines). Nothing is copied:
 * what the reservations leave of a stream is its residual after existing commitments less the share
 * of it they covered (CoveredShares), read where it is needed.
 */
import { type CoveragePool, type CoveredShares, tierAmounts } from './coverage-pool';
import { type LineCoverage, lineShares } from './line-coverage';
import { applicationOrder, type PlannedLine } from './planned-line';
import type { Portfolio } from './portfolio';

export interface ReservationResult {
  readonly coverages: readonly LineCoverage[];
  /** The coverages new in this profile, their tallies still to fill. */
  readonly fresh: readonly LineCoverage[];
  /** Per group pool with a line: its coverage. */
  readonly coverageOf: ReadonlyMap<CoveragePool, LineCoverage>;
  /** Per stream: the share of its residual the reservations covered in each hour of the range. */
  readonly covered: CoveredShares;
  /** Group pools covered differently than in the previous profile (every covered one the first time). */
  readonly changedPools: ReadonlySet<CoveragePool>;
}

export interface ReservationStage {
  apply(lines: readonly PlannedLine[]): ReservationResult;
}

const sameLine = (a: PlannedLine, b: PlannedLine) => a.offer === b.offer && a.quantity === b.quantity;

export function reservationStage(portfolio: Portfolio): ReservationStage {
  let previous = new Map<CoveragePool, LineCoverage>();
  let covered: (Float64Array | undefined)[] = new Array(portfolio.streams.length).fill(undefined);
  return {
    apply(lines) {
      const changedPools = new Set<CoveragePool>();
      const fresh: LineCoverage[] = [];
      const current = new Map<CoveragePool, LineCoverage>();
      const shares = covered.slice();
      for (const line of [...lines].sort(applicationOrder)) {
        const before = previous.get(line.pool);
        if (before && sameLine(before.line, line)) {
          current.set(line.pool, { ...before, line });
          continue;
        }
        // Groups are disjoint: each line reads its members' residual after existing commitments.
        const amounts =
          line.amounts ?? tierAmounts(line.pool, portfolio.residual, { start: 0, end: portfolio.hours });
        const coverage = lineShares(line, amounts, portfolio.hours);
        current.set(line.pool, coverage);
        fresh.push(coverage);
        changedPools.add(line.pool);
        line.pool.tiers.forEach((tier, j) => {
          for (const s of tier.members) shares[s] = coverage.shares[j];
        });
      }
      for (const pool of previous.keys()) {
        if (current.has(pool)) continue;
        for (const s of pool.members) shares[s] = undefined;
        changedPools.add(pool);
      }
      previous = current;
      covered = shares;
      return { coverages: [...current.values()], fresh, coverageOf: current, covered: shares, changedPools };
    },
  };
}
