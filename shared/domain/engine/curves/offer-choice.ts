/**
 * Per group, the allowed offer of greatest total value (docs/plan-engine.md): each offer's quantity by the
 * risk-aware rule, then the offer whose W(q) is largest; none when no offer has W > 0. Ties go to
 * the lowest offer id. Then the group's other offers again on what that line leaves (layers.ts),
 * while one is worth buying there.
 */

import { poolShares } from '../groups/coverage-pool';
import {
  type AheadSegment,
  type CommitmentsAhead,
  chooseQuantityAhead,
} from '../portfolio/commitments-ahead';
import type { Offer } from '../shapes/model';
import type { CoverageCurve } from './coverage-curve';
import { buildCurve, coveredValue, peakUnits } from './coverage-curve';
import { leftoverAmounts } from './layers';
import type { PlannedLine } from './planned-line';
import type { PlanningContext } from './planning-context';
import {
  chooseQuantity,
  type OfferEconomics,
  type QuantityLadder,
  stepLadder,
  worthBuying,
} from './quantity';

export interface OfferChoice {
  readonly offer: Offer;
  readonly quantity: number;
  readonly value: number;
}

/**
 * Below this a quantity is what subtracting owned commitments from usage leaves in floating
 * point, not usage (a savings plan bought for exactly the spend leaves 1e-16 $/h of it); every
 * real quantity is a step of a reservation or a cent-scale commitment, far above it.
 */
const NEGLIGIBLE_QUANTITY = 1e-9;

/** A step that fits the room up to this share of a step fits it (room is a sum of usage). */
const ROOM_TOLERANCE = 1e-9;

/** The group's steps up to its peak, and no more of them than fit `room`. */
function roomLadder(step: number, peak: number, room: number): QuantityLadder {
  const ladder = stepLadder(step, peak);
  if (room === Number.POSITIVE_INFINITY) return ladder;
  const size = Math.min(ladder.size, Math.max(0, Math.floor(room / step + ROOM_TOLERANCE)));
  return { size, level: ladder.level };
}

/**
 * `offers` sorted by id. `aheadOf`: per offer, the commitments ahead its term meets
 * (commitments-ahead.ts); an offer with none is valued on `curve` alone.
 */
export function bestOffer(
  curve: CoverageCurve,
  ladder: QuantityLadder,
  offers: readonly Offer[],
  economicsOf: (offer: Offer) => OfferEconomics,
  aheadOf?: (offer: Offer) => readonly AheadSegment[] | null,
): OfferChoice | null {
  let best: OfferChoice | null = null;
  for (const offer of offers) {
    const segments = aheadOf?.(offer) ?? null;
    const { quantity, value } = segments
      ? chooseQuantityAhead(curve, ladder, economicsOf(offer), segments)
      : chooseQuantity(curve, ladder, economicsOf(offer));
    if (value > 0 && quantity > NEGLIGIBLE_QUANTITY && (!best || value > best.value))
      best = { offer, quantity, value };
  }
  return best;
}

/** The reservation lines of one profile: per group, a stack of layers of distinct offers. */
export function chooseReservations(
  context: PlanningContext,
  economicsOf: (offer: Offer) => OfferEconomics,
  ahead: CommitmentsAhead | null = null,
): PlannedLine[] {
  const lines: PlannedLine[] = [];
  const hours = context.portfolio.hours;
  for (const group of context.portfolio.groups) {
    const offers = context.reservationOffers.get(group.scopeKey);
    if (!offers) continue;
    const { pool, amounts, curve } = context.groupCurve(group);
    // Owned savings plans are billed after every reservation: the stack takes only what they leave
    // (owned-room.ts). Worked out for groups with a line only: most groups have none.
    let room = Number.POSITIVE_INFINITY;
    let roomKnown = false;
    const aheadOf = ahead ? (offer: Offer) => ahead(pool, offer) : undefined;
    let left = offers;
    let layerAmounts: readonly Float64Array[] = amounts;
    let layerCurve = curve;
    for (let layer = 0; left.length > 0; layer++) {
      const ladder = roomLadder(group.step, peakUnits(layerCurve), room);
      let choice = bestOffer(layerCurve, ladder, left, economicsOf, aheadOf);
      if (choice && !roomKnown) {
        room = context.reservationRoom(group);
        roomKnown = true;
        if (choice.quantity > room * (1 + ROOM_TOLERANCE))
          choice = bestOffer(
            layerCurve,
            roomLadder(group.step, peakUnits(layerCurve), room),
            left,
            economicsOf,
            aheadOf,
          );
      }
      if (!choice) break;
      room -= choice.quantity;
      lines.push({
        offer: choice.offer,
        sharingKey: group.sharingKey,
        pool,
        quantity: choice.quantity,
        layer,
        amounts: layerAmounts,
      });
      left = left.filter((offer) => offer !== choice.offer);
      // The first step of what this layer leaves is the step above it on its own curve (the
      // pool is the same): when no other offer is worth that step, none is worth any step above
      // (nor with commitments ahead: Cov_ahead's steps are worth no more than Cov's).
      const { quantity } = choice;
      if (room < group.step * (1 - ROOM_TOLERANCE)) break;
      const next =
        (coveredValue(layerCurve, quantity + group.step) - coveredValue(layerCurve, quantity)) / group.step;
      if (!left.some((offer) => worthBuying(next, economicsOf(offer)))) break;
      const { shares } = poolShares(pool, layerAmounts, choice.quantity, hours);
      layerAmounts = leftoverAmounts(layerAmounts, shares);
      layerCurve = buildCurve(
        pool.tiers.map((tier) => tier.value),
        layerAmounts,
      );
    }
  }
  return lines;
}
