/**
 * The reservations of one profile after another. A group whose line (offer and quantity) is the
 * same as in the previous profile keeps that profile's coverage; only groups whose line changed are
 * covered again. The default profiles agree on most groups, so the second and third cost little.
 * Nothing is copied: what the reservations leave of a stream is its residual after existing
 * commitments less the share of it they covered (CoveredShares), read where it is needed.
 */
import type { CoveragePool, CoveredShares } from './coverage-pool';
import { coverLine, type LineCoverage } from './line-coverage';
import { applicationOrder, type PlannedLine } from './planned-line';
import type { Portfolio } from './portfolio';
import type { HourRange } from './window-time';

export interface ReservationResult {
  readonly coverages: readonly LineCoverage[];
  /** Per group pool with a line: its coverage. */
  readonly coverageOf: ReadonlyMap<CoveragePool, LineCoverage>;
  /** Per stream: the share of its residual the reservations covered in each hour of the range. */
  readonly covered: CoveredShares;
  /** Group pools covered differently than in the previous profile (every covered one the first time). */
  readonly changedPools: ReadonlySet<CoveragePool>;
}

export interface ReservationStage {
  apply(lines: readonly PlannedLine[], range: HourRange): ReservationResult;
}

const sameLine = (a: PlannedLine, b: PlannedLine) => a.offer === b.offer && a.quantity === b.quantity;

export function reservationStage(portfolio: Portfolio): ReservationStage {
  let previous = new Map<CoveragePool, LineCoverage>();
  let covered: (Float64Array | undefined)[] = new Array(portfolio.streams.length).fill(undefined);
  return {
    apply(lines, range) {
      const changedPools = new Set<CoveragePool>();
      const current = new Map<CoveragePool, LineCoverage>();
      const shares = covered.slice();
      for (const line of [...lines].sort(applicationOrder)) {
        const before = previous.get(line.pool);
        if (before && sameLine(before.line, line)) {
          current.set(line.pool, { ...before, line });
          continue;
        }
        // Groups are disjoint: each line reads its members' residual after existing commitments.
        const coverage = coverLine(line, portfolio.residual, range, { readOnly: true });
        current.set(line.pool, coverage);
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
      return { coverages: [...current.values()], coverageOf: current, covered: shares, changedPools };
    },
  };
}
