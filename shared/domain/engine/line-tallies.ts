/**
 * The tallies of a profile's new lines (lineShares), over the whole window, in one pass over the
 * streams. For a stream with residual R[t] after existing commitments, covered by a reservation for
 * a share g[t] and then by a savings plan for a share s[t] of what is left:
 *   reservation:  before = sum_t R[t] (the residual's total),      covered = sum_t R[t] g[t]
 *   savings plan: before = sum_t (R[t] - R[t] g[t]),               covered = sum_t (R[t] - R[t] g[t]) s[t]
 * One loop reads R once for all of them: the same sums, in the same order, as covering the lines one
 * after the other (which is what the resource-matches endpoint does), so both agree to the last bit.
 */
import type { CoveredShares } from './coverage-pool';
import type { LineCoverage } from './line-coverage';
import type { Portfolio } from './portfolio';

/** Per stream: which of the lines covers it (-1: none), in which tier and at which pool position. */
interface Slots {
  readonly line: Int32Array;
  readonly tier: Int32Array;
  readonly position: Int32Array;
}

function slotsOf(coverages: readonly LineCoverage[], streams: number): Slots {
  const slots = {
    line: new Int32Array(streams).fill(-1),
    tier: new Int32Array(streams),
    position: new Int32Array(streams),
  };
  coverages.forEach((coverage, line) => {
    coverage.line.pool.tiers.forEach((tier, j) => {
      for (let m = 0; m < tier.members.length; m++) {
        const s = tier.members[m] as number;
        slots.line[s] = line;
        slots.tier[s] = j;
        slots.position[s] = tier.offset + m;
      }
    });
  });
  return slots;
}

/**
 * Fills the tallies of new reservation lines and new savings-plan lines. `covered`: per stream,
 * the share of its residual the profile's reservations cover (new lines or kept ones).
 */
export function tallyLines(
  portfolio: Portfolio,
  reservations: readonly LineCoverage[],
  savingsPlans: readonly LineCoverage[],
  covered: CoveredShares,
): void {
  const { residual, residualTotals, hours } = portfolio;
  const reserved = slotsOf(reservations, residual.length);
  const spent = slotsOf(savingsPlans, residual.length);
  for (let s = 0; s < residual.length; s++) {
    const reservation = reservations[reserved.line[s] as number];
    const spend = savingsPlans[spent.line[s] as number];
    if (!reservation && !spend) continue;
    const usage = residual[s] as Float64Array;
    // Hours covered before the savings plan: by this profile's reservation, new or kept.
    const first = reservation ? (reservation.shares[reserved.tier[s] as number] as Float64Array) : covered[s];
    let firstCovered = 0;
    let before = 0;
    let spendCovered = 0;
    if (spend) {
      const second = spend.shares[spent.tier[s] as number] as Float64Array;
      if (first) {
        for (let t = 0; t < hours; t++) {
          const units = usage[t] as number;
          const cover = units * (first[t] as number);
          firstCovered += cover;
          const left = units - cover;
          before += left;
          spendCovered += left * (second[t] as number);
        }
      } else {
        before = residualTotals[s] as number;
        for (let t = 0; t < hours; t++) spendCovered += (usage[t] as number) * (second[t] as number);
      }
      const position = spent.position[s] as number;
      spend.tally.before[position] = before;
      spend.tally.covered[position] = spendCovered;
    } else if (first) {
      for (let t = 0; t < hours; t++) firstCovered += (usage[t] as number) * (first[t] as number);
    }
    if (reservation) {
      const position = reserved.position[s] as number;
      reservation.tally.before[position] = residualTotals[s] as number;
      reservation.tally.covered[position] = firstCovered;
    }
  }
}
