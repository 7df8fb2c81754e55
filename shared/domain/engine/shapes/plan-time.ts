/**
 * Which owned commitments a plan counts (docs/plan-engine.md, Time is the plan's): the plan looks
 * ahead from the time it is computed, with the lookback window standing in for the future's usage.
 * So a commitment is judged by its dates against the plan's clock, not against the window's hours:
 *
 * - it counts, over every hour of the window, when it is in force at the end of the renewal
 *   horizon (started by then, not yet ended): bought before, inside or after the window alike;
 * - it is renewed when it is in force at the plan's time but ends within the horizon: it does not
 *   count, so the plan covers what it leaves, and lines that do are renewals starting at its end;
 * - otherwise (ended before the plan's time, or starting after the horizon) it does not count.
 */
import { DAY_MS } from './window-time';

/** Days before a commitment's end in which a plan renews it, unless the org sets its own. */
export const DEFAULT_RENEWAL_HORIZON_DAYS = 30;

/** A year: a horizon past it would renew one-year commitments on the day they are bought. */
export const MAX_RENEWAL_HORIZON_DAYS = 365;

export const isRenewalHorizonDays = (days: number): boolean =>
  Number.isInteger(days) && days >= 0 && days <= MAX_RENEWAL_HORIZON_DAYS;

export interface PlanClock {
  /** When the plan is computed, epoch milliseconds. */
  readonly atMs: number;
  /** The renewal horizon's length in milliseconds (>= 0). */
  readonly horizonMs: number;
}

export type PlanTimeStanding = 'counted' | 'renewed' | 'not_counted';

export function planClock(atMs: number, renewalHorizonDays: number): PlanClock {
  return { atMs, horizonMs: renewalHorizonDays * DAY_MS };
}

/** How a commitment in force over [startMs, endMs) stands for a plan computed at `clock`. */
export function standingAt(clock: PlanClock, startMs: number, endMs: number): PlanTimeStanding {
  const horizonEnd = clock.atMs + clock.horizonMs;
  if (startMs <= horizonEnd && endMs > horizonEnd) return 'counted';
  if (startMs <= clock.atMs && endMs > clock.atMs) return 'renewed';
  return 'not_counted';
}
