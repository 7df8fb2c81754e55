/**
 * Commitments ahead (docs/plan-engine.md, Commitments ahead): an owned commitment starting after
 * the renewal horizon counts in no hour of the window (plan-time.ts), yet a new line bought now
 * meets it during its term. From the commitment's start the new line covers only what it leaves:
 * owned commitments apply first, so in a group the line's units sit `U` units higher, U being what
 * the commitments in force hold. A reservation pool allocates a sum of quantities as one after the
 * other, so what q units cover above U units is `Cov(q + U) - Cov(U)` on the same curve. Over the
 * line's term the hours fall in segments of constant U, and the line's mean covered value is
 *
 *   Cov_ahead(q) = sum_segments w (Cov(q + U) - Cov(U)),  w = the segment's share of A = sum_{t<T} S(t)
 *
 * (the survival-weighted share of the term: the later hours weigh what usage is expected to be
 * left). Its quantity is chosen as any line's (quantity.ts) on Cov_ahead instead of Cov. A layer
 * above others sees the same U: the owned commitment takes the bottom units, every layer moves up
 * by it. Only reservations held in a group's own units are known here (group-holdings.ts); a group
 * that another kind of commitment ahead shares a stream with is planned as before.
 */
import { type CoverageCurve, coveredValue } from '../curves/coverage-curve';
import type { PlanningContext } from '../curves/planning-context';
import {
  type OfferEconomics,
  type QuantityChoice,
  type QuantityLadder,
  worthBuying,
} from '../curves/quantity';
import { survivalSums } from '../curves/survival';
import type { CoveragePool } from '../groups/coverage-pool';
import type { Offer, PlanProfile } from '../shapes/model';
import { HOUR_MS } from '../shapes/window-time';
import { type GroupHolding, groupHoldings } from './group-holdings';

/** Hours of a new line's term in which the commitments ahead hold `units` of its group. */
export interface AheadSegment {
  readonly units: number;
  /** The segment's survival-weighted share of the term; the segments' weights sum to 1. */
  readonly weight: number;
}

/** Per group pool and offer: the segments of the offer's term; null when nothing ahead is held there. */
export type CommitmentsAhead = (pool: CoveragePool, offer: Offer) => readonly AheadSegment[] | null;

/** The segments of a term of `termHours` from the plan's time `atMs`, for hazard `hazard`. */
export function aheadSegments(
  holdings: readonly GroupHolding[],
  atMs: number,
  termHours: number,
  hazard: number,
): AheadSegment[] {
  const clip = (ms: number) => Math.min(termHours, Math.max(0, (ms - atMs) / HOUR_MS));
  const points = new Set<number>([0, termHours]);
  for (const holding of holdings) {
    points.add(clip(holding.startMs));
    points.add(clip(holding.endMs));
  }
  const sorted = [...points].sort((a, b) => a - b);
  const live = (hours: number) => survivalSums(hazard, hours, hours).liveHours;
  const whole = live(termHours);
  const segments: AheadSegment[] = [];
  for (let k = 0; k + 1 < sorted.length; k++) {
    const from = sorted[k] as number;
    const to = sorted[k + 1] as number;
    let units = 0;
    for (const holding of holdings) {
      if (clip(holding.startMs) <= from && clip(holding.endMs) >= to) units += holding.units;
    }
    segments.push({ units, weight: whole > 0 ? (live(to) - live(from)) / whole : 0 });
  }
  return segments;
}

/** What the commitments starting after the horizon hold in each group, for one profile; null when none. */
export function commitmentsAhead(context: PlanningContext, profile: PlanProfile): CommitmentsAhead | null {
  const { portfolio, clock } = context;
  const horizonEnd = clock.atMs + clock.horizonMs;
  const ahead: number[] = [];
  portfolio.book.commitments.forEach((booked, c) => {
    if (booked.startMs > horizonEnd && booked.endMs > booked.startMs) ahead.push(c);
  });
  if (ahead.length === 0) return null;
  const holdingsOf = groupHoldings(portfolio, ahead, (a, b) => a.startMs - b.startMs);
  // Offers share terms: one entry per (pool, term).
  const cache = new Map<CoveragePool, Map<number, readonly AheadSegment[] | null>>();
  return (pool, offer) => {
    const holdings = holdingsOf(pool);
    if (!holdings || holdings.length === 0) return null;
    const byTerm = cache.get(pool) ?? new Map<number, readonly AheadSegment[] | null>();
    cache.set(pool, byTerm);
    let segments = byTerm.get(offer.termHours);
    if (segments === undefined) {
      const found = aheadSegments(holdings, clock.atMs, offer.termHours, profile.hazard);
      segments = found.some((segment) => segment.units > 0) ? found : null;
      byTerm.set(offer.termHours, segments);
    }
    return segments;
  };
}

/** Cov_ahead(q): the mean on-demand value q units cover over the term, what is ahead taken first. */
export function coveredAhead(curve: CoverageCurve, segments: readonly AheadSegment[], q: number): number {
  let covered = 0;
  for (const { units, weight } of segments) {
    covered +=
      weight *
      (units > 0 ? coveredValue(curve, q + units) - coveredValue(curve, units) : coveredValue(curve, q));
  }
  return covered;
}

/** chooseQuantity (quantity.ts) on Cov_ahead: the largest level whose step is worth buying, and W there. */
export function chooseQuantityAhead(
  curve: CoverageCurve,
  ladder: QuantityLadder,
  economics: OfferEconomics,
  segments: readonly AheadSegment[],
): QuantityChoice {
  const stepWorthBuying = (index: number) => {
    const low = ladder.level(index - 1);
    const high = ladder.level(index);
    const perUnit = (coveredAhead(curve, segments, high) - coveredAhead(curve, segments, low)) / (high - low);
    return worthBuying(perUnit, economics);
  };
  // Cov_ahead is a sum of concave curves: the value per unit of successive steps never rises.
  let lo = 0;
  let hi = ladder.size;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (stepWorthBuying(mid)) lo = mid;
    else hi = mid - 1;
  }
  const quantity = ladder.level(lo);
  if (quantity <= 0) return { quantity, value: 0 };
  const { rate, liveHours, billedHours, feeRate } = economics;
  const covered = coveredAhead(curve, segments, quantity);
  return {
    quantity,
    value:
      covered * liveHours -
      rate * billedHours * quantity -
      feeRate * liveHours * Math.max(0, covered - rate * quantity),
  };
}
