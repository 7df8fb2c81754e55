/**
 * docs/plan-engine.md: how many units of an offer to buy (exact, not averaged).
 *
 * Effective hourly rate of one unit: r = upfront / T + recurring. Units are bought along a ladder of
 * levels 0 = l_0 < l_1 < ... < l_N (reservations: multiples of the group's step; savings plans:
 * the observed hourly commitment levels, where the curve bends). The value of one unit in step i,
 * with P_i = (Cov(l_i) - Cov(l_{i-1})) / (l_i - l_{i-1}) the on-demand value it covers per hour
 * (for unit steps on one tier of price p, P_k = p * F(k), F(k) the share of hours with R[t] >= k), is
 *   V_i = P_i * A - r * B - fee_rate * max(0, P_i - r) * A.
 * V is non-decreasing in P (slope A for P < r, A * (1 - fee_rate) >= 0 above, as fee_rate <= 1) and
 * P_i is non-increasing in i (Cov is concave), so V_i is non-increasing: the optimum is the largest
 * level whose step has V_i > 0, found by binary search. Its total value
 *   W(q) = sum_{i <= n} V_i (l_i - l_{i-1}) = A * Cov(q) - r * B * q - fee_rate * A * max(0, Cov(q) - r * q)
 * (every bought step has P_i > r, since V_i > 0 and B >= A, so the fees add up to the line's fee).
 * No other level has a greater W: steps above q* add P A (1 - f) - r (B - f A) <= 0 each.
 */

import type { Offer, PlanProfile } from '../shapes/model';
import { type CoverageCurve, coveredValue } from './coverage-curve';
import { survivalSums } from './survival';

const MIN_RELATIVE_GAIN = 1e-9;

export interface OfferEconomics {
  /** r = upfront / T + recurring. */
  readonly rate: number;
  /** A */
  readonly liveHours: number;
  /** B */
  readonly billedHours: number;
  readonly feeRate: number;
}

export function effectiveRate(offer: Offer): number {
  return offer.upfront / offer.termHours + offer.recurring;
}

export function offerEconomics(offer: Offer, profile: PlanProfile): OfferEconomics {
  const sums = survivalSums(profile.hazard, offer.termHours, offer.lockinHours);
  return { rate: effectiveRate(offer), ...sums, feeRate: offer.feeRate };
}

/** V for a unit covering P on-demand dollars per hour. */
export function unitValue(coveredPerHour: number, economics: OfferEconomics): number {
  const { rate, liveHours, billedHours, feeRate } = economics;
  return (
    coveredPerHour * liveHours - rate * billedHours - feeRate * Math.max(0, coveredPerHour - rate) * liveHours
  );
}

/** W(q): expected value of q units over the term. */
export function totalValue(curve: CoverageCurve, quantity: number, economics: OfferEconomics): number {
  const { rate, liveHours, billedHours, feeRate } = economics;
  const covered = coveredValue(curve, quantity);
  return (
    covered * liveHours -
    rate * billedHours * quantity -
    feeRate * liveHours * Math.max(0, covered - rate * quantity)
  );
}

/**
 * An upper bound of W(q) over every q, for a pool whose highest tier value is v_1 and whose curve
 * tends to Cov(infinity) = `coverable`: as B >= A and Cov(q) <= v_1 q,
 *   W(q) <= A (Cov(q) - r q) <= A Cov(q) (1 - r / v_1) <= A coverable max(0, 1 - r / v_1).
 * Lets a plan skip the curves of pools that cannot beat the best offer found so far.
 */
export function valueBound(economics: OfferEconomics, coverable: number, highestValue: number): number {
  if (highestValue <= 0) return 0;
  return economics.liveHours * coverable * Math.max(0, 1 - economics.rate / highestValue);
}

/** Levels l_1..l_N that quantities are chosen from. */
export interface QuantityLadder {
  readonly size: number;
  /** l_i for i in 1..size; level(0) = 0. */
  level(index: number): number;
}

export function stepLadder(step: number, peak: number): QuantityLadder {
  return { size: peak > 0 ? Math.ceil(peak / step) : 0, level: (index) => index * step };
}

/**
 * Levels closer than this share of their size are one level: they differ by rounding only (the same
 * usage summed in another order, as tiers stack), and over a step that narrow the value a unit
 * covers is rounding noise, which would send the binary search the wrong way.
 */
const LEVEL_RESOLUTION = 1e-9;

/** The ladder of ascending `levels`, each cluster of levels closer than LEVEL_RESOLUTION kept as its largest. */
export function levelLadder(levels: Float64Array): QuantityLadder {
  // Filled from the top down: kept[first..] ascending.
  const kept = new Float64Array(levels.length);
  let first = levels.length;
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i] as number;
    if (
      first === levels.length ||
      (kept[first] as number) - level > LEVEL_RESOLUTION * (kept[first] as number)
    ) {
      kept[--first] = level;
    }
  }
  const size = levels.length - first;
  return { size, level: (index) => (index === 0 ? 0 : (kept[first + index - 1] ?? 0)) };
}

export interface QuantityChoice {
  readonly quantity: number;
  /** W(quantity) */
  readonly value: number;
}

/** V of the step from level index - 1 to level index: the value of a unit it adds. */
function stepValue(
  curve: CoverageCurve,
  ladder: QuantityLadder,
  economics: OfferEconomics,
  index: number,
): number {
  const low = ladder.level(index - 1);
  const high = ladder.level(index);
  const perUnit = (coveredValue(curve, high) - coveredValue(curve, low)) / (high - low);
  return unitValue(perUnit, economics);
}

/**
 * Whether a unit covering `coveredPerHour` is worth buying: V > 0 up to rounding, a step must gain
 * more than a billionth of what a unit costs over its term, so that float noise (a discount of
 * 1e-16) never buys anything.
 */
export function worthBuying(coveredPerHour: number, economics: OfferEconomics): boolean {
  return unitValue(coveredPerHour, economics) > MIN_RELATIVE_GAIN * economics.rate * economics.billedHours;
}

/** The largest level whose step has V > 0 (0 if none), and its total value. */
export function chooseQuantity(
  curve: CoverageCurve,
  ladder: QuantityLadder,
  economics: OfferEconomics,
): QuantityChoice {
  const threshold = MIN_RELATIVE_GAIN * economics.rate * economics.billedHours;
  let lo = 0;
  let hi = ladder.size;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    // worthBuying, with the threshold computed once.
    if (stepValue(curve, ladder, economics, mid) > threshold) lo = mid;
    else hi = mid - 1;
  }
  const quantity = ladder.level(lo);
  return { quantity, value: quantity > 0 ? totalValue(curve, quantity, economics) : 0 };
}
