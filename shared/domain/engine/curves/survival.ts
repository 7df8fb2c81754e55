/**
 * docs/plan-engine.md hazard sums. Usage may fade: with monthly hazard h it survives t hours with probability
 *   S(t) = (1 - h)^(t / 730).
 * Over an offer's term T with lock-in L:
 *   A = sum_{t<T} S(t)              expected hours the usage is still there to be covered,
 *   B = L + sum_{L<=t<T} S(t)       expected hours billed (the lock-in is paid whatever happens).
 * Both are geometric sums with ratio rho = (1 - h)^(1/730), computed in closed form:
 *   A = (1 - rho^T) / (1 - rho),   B = L + (rho^L - rho^T) / (1 - rho),   and A = B = T when h = 0.
 */
import { HOURS_PER_MONTH } from '../shapes/window-time';

export interface SurvivalSums {
  /** A: expected live hours over the term. */
  readonly liveHours: number;
  /** B: expected billed hours over the term. */
  readonly billedHours: number;
}

/** A and B for hazard h in [0, 1), term T and lock-in L (hours). */
export function survivalSums(hazard: number, termHours: number, lockinHours: number): SurvivalSums {
  if (hazard === 0) return { liveHours: termHours, billedHours: termHours };
  // ln(rho) and 1 - rho through log1p/expm1: exact to the last bits even for tiny hazards.
  const logRho = Math.log1p(-hazard) / HOURS_PER_MONTH;
  const oneMinusRho = -Math.expm1(logRho);
  // 1 - rho^n, again without cancellation.
  const oneMinusRhoPow = (hours: number) => -Math.expm1(hours * logRho);
  return {
    liveHours: oneMinusRhoPow(termHours) / oneMinusRho,
    // rho^L - rho^T = rho^L (1 - rho^(T - L))
    billedHours:
      lockinHours + (Math.exp(lockinHours * logRho) * oneMinusRhoPow(termHours - lockinHours)) / oneMinusRho,
  };
}
