/**
 * The room an EC2 Instance Savings Plan line has before the owned Compute Savings Plans (and any
 * other owned spend commitment ranked after instance plans): the provider bills instance plans
 * first, so a new one takes only what those leave, after the plan's own reservations
 * (owned-room.ts, docs/plan-engine.md, New lines and owned savings plans).
 */
import type { CoveragePool } from '../groups/coverage-pool';
import { roomBeforeOwned } from '../portfolio/owned-room';
import type { Portfolio } from '../portfolio/portfolio';
import type { SpendTable } from './planning-context';
import type { QuantityLadder } from './quantity';
import type { ReservationResult } from './reservation-stage';

/** Existing-commitments rank of the owned spend commitments billed after instance plans. */
const AFTER_INSTANCE_PLANS = 3;

/** A level this close to the room (relative) fits it: both are sums of the same usage. */
const ROOM_TOLERANCE = 1e-9;

/** What the profile's reservations leave of stream s's residual, hour by hour. */
function leftByReservations(portfolio: Portfolio, reserved: ReservationResult, s: number): Float64Array {
  const residual = portfolio.residual[s] as Float64Array;
  const layers = reserved.covered[s];
  if (!layers) return residual;
  const left = Float64Array.from(residual);
  for (const share of layers) {
    for (let t = 0; t < left.length; t++) {
      const units = left[t] as number;
      left[t] = units - units * (share[t] as number);
    }
  }
  return left;
}

/** Infinity unless the table is an instance plan's and owned spend commitments billed after it cover its usage. */
export function instancePlanRoom(
  portfolio: Portfolio,
  table: SpendTable,
  pool: CoveragePool,
  reserved: ReservationResult,
): number {
  if (table.offers[0]?.contractType !== 'instance_plans') return Number.POSITIVE_INFINITY;
  return roomBeforeOwned(portfolio, pool, AFTER_INSTANCE_PLANS, (s) =>
    leftByReservations(portfolio, reserved, s),
  );
}

/** The ladder's levels up to `room`. */
export function ladderWithin(ladder: QuantityLadder, room: number): QuantityLadder {
  let lo = 0;
  let hi = ladder.size;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ladder.level(mid) <= room * (1 + ROOM_TOLERANCE)) lo = mid;
    else hi = mid - 1;
  }
  return { size: lo, level: ladder.level };
}
