/**
 * The reservations of one profile after another, applied to one working residual. A group whose
 * line (offer and quantity) is the same as in the previous profile keeps that profile's coverage
 * and residual; only groups whose line changed are covered again, from the residual after existing
 * commitments. The default profiles agree on most groups, so the second and third cost little.
 * Streams no reservation covers point at the residual after existing commitments (never copied).
 */
import type { CoveragePool } from './coverage-pool';
import { coverLine, type LineCoverage } from './line-coverage';
import { applicationOrder, type PlannedLine } from './planned-line';
import { type Portfolio, residualSize, streamViews } from './portfolio';
import type { HourRange } from './window-time';

export interface ReservationResult {
  readonly coverages: readonly LineCoverage[];
  /** Accounts whose residual differs from the previous profile's (all of them the first time). */
  readonly changedAccounts: ReadonlySet<string>;
}

export interface ReservationStage {
  /**
   * Per stream: the usage left after existing commitments and the last applied reservations.
   * Read only: arrays of uncovered streams are the portfolio's own.
   */
  readonly residual: readonly Float64Array[];
  apply(lines: readonly PlannedLine[], range: HourRange): ReservationResult;
}

const sameLine = (a: PlannedLine, b: PlannedLine) => a.offer === b.offer && a.quantity === b.quantity;

export function reservationStage(portfolio: Portfolio): ReservationStage {
  const own = streamViews(
    new Float64Array(residualSize(portfolio)),
    portfolio.streams.length,
    portfolio.hours,
  );
  const residual = [...portfolio.residual];
  let previous = new Map<CoveragePool, LineCoverage>();
  let first = true;
  return {
    residual,
    apply(lines, range) {
      const changedAccounts = new Set<string>(
        first ? portfolio.streams.map((stream) => stream.accountId) : [],
      );
      first = false;
      const current = new Map<CoveragePool, LineCoverage>();
      for (const line of [...lines].sort(applicationOrder)) {
        const before = previous.get(line.pool);
        if (before && sameLine(before.line, line)) {
          current.set(line.pool, { ...before, line });
          continue;
        }
        for (const s of line.pool.members) residual[s] = own[s] as Float64Array;
        // Groups are disjoint: each line reads its members' residual after existing commitments.
        current.set(line.pool, coverLine(line, residual, range, { from: portfolio.residual }));
        changedAccounts.add(line.accountId);
      }
      for (const [pool, coverage] of previous) {
        if (current.has(pool)) continue;
        for (const s of pool.members) residual[s] = portfolio.residual[s] as Float64Array;
        changedAccounts.add(coverage.line.accountId);
      }
      previous = current;
      return { coverages: [...current.values()], changedAccounts };
    },
  };
}
