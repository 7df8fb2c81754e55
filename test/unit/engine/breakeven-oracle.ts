/**
 * An oracle of break-even for the engine's tests, written from the spec's words rather than from
 * the engine's segments (shared/domain/engine/plans/breakeven.ts).
 */
import type { Offer } from '../../../shared/domain/engine/shapes/model';

/** A line as the break-even oracle sees it: what it covers per hour, what it costs, its terms. */
export interface WalkedLine {
  readonly coveredPerHour: number;
  readonly quantity: number;
  readonly offer: Offer;
}

/**
 * Break-even by walking the hours (the spec: "usage hours needed until achieved savings exceed the
 * remaining commitment"). After k hours of usage covered as over the lookback, each line kept
 * min(k, T) hours has achieved what it avoided on demand, less its fee and everything paid (the
 * upfront, then the recurring charge hour by hour), and still owes its recurring charge to the end
 * of its lock-in. The first whole hour where achieved >= owed, interpolated within the hour before
 * it (terms and lock-ins are whole hours: nothing bends inside an hour); 0 if never.
 */
export function breakevenByWalking(lines: readonly WalkedLine[]): number {
  const fees = lines.map(({ coveredPerHour, quantity, offer: bought }) => {
    const amortized = quantity * (bought.upfront / bought.termHours + bought.recurring);
    return bought.feeRate * Math.max(0, coveredPerHour - amortized);
  });
  const standing = (hour: number) => {
    let achieved = 0;
    let owed = 0;
    for (let line = 0; line < lines.length; line++) {
      const { coveredPerHour, quantity, offer: bought } = lines[line] as WalkedLine;
      const kept = Math.min(hour, bought.termHours);
      const paid = quantity * bought.upfront + quantity * bought.recurring * kept;
      achieved += (coveredPerHour - (fees[line] as number)) * kept - paid;
      owed += quantity * bought.recurring * Math.max(0, bought.lockinHours - kept);
    }
    return achieved - owed;
  };
  let previous = standing(0);
  if (previous >= 0) return 0;
  const longest = Math.max(...lines.map((line) => line.offer.termHours));
  for (let hour = 1; hour <= longest; hour++) {
    const now = standing(hour);
    if (now >= 0) return hour - 1 + -previous / (now - previous);
    previous = now;
  }
  return 0;
}
