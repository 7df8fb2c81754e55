/**
 * Applying one line of a plan to usage over a range of hours, keeping per pool member what it
 * covered. Plans use it over the whole window; the resource-matches endpoint over any sub-range
 * (coverage is hour-local, so the figures of a sub-range are those of its hours).
 */

import type { PlannedLine } from '../curves/planned-line';
import { type CoverTally, coverPool, poolShares } from '../groups/coverage-pool';
import type { HourRange } from '../shapes/window-time';

export interface LineCoverage {
  readonly line: PlannedLine;
  /** Per pool member: residual units before the line and units it covered, summed over the range. */
  readonly tally: CoverTally;
  /** On-demand dollars covered, summed over the range. */
  readonly coveredValue: number;
  /** Pool units used, summed over the range. */
  readonly usedUnits: number;
  /** Per pool tier, per hour of the range: the share of its residual the line covered. */
  readonly shares: readonly Float64Array[];
}

export interface CoverLineOptions {
  /** Read the residual from here and write what is left to `residual` (lines on disjoint streams only). */
  readonly from?: readonly Float64Array[];
  /** Tally only, leaving `residual` as it is. */
  readonly readOnly?: boolean;
  /** The pool's tier amounts over the range, when known; default: the line's, else summed here. */
  readonly amounts?: readonly Float64Array[];
}

function emptyTally(size: number): CoverTally {
  const sums = new Float64Array(2 * size);
  return { before: sums.subarray(0, size), covered: sums.subarray(size) };
}

/** Covers `residual` (mutated unless read-only) with one line. */
export function coverLine(
  line: PlannedLine,
  residual: readonly Float64Array[],
  range: HourRange,
  options: CoverLineOptions = {},
): LineCoverage {
  const tally = emptyTally(line.pool.members.length);
  const result = coverPool(line.pool, residual, range, {
    ...options,
    quantity: line.quantity,
    tally,
    amounts: options.amounts ?? line.amounts,
  });
  return {
    line,
    tally,
    coveredValue: result.coveredValue,
    usedUnits: result.used,
    shares: result.shares,
  };
}

/**
 * What a line covers hour by hour over the whole window, given its pool's tier amounts there, with
 * its tally still zero: tallyLines fills it, for several lines in one pass over the streams.
 */
export function lineShares(line: PlannedLine, amounts: readonly Float64Array[], hours: number): LineCoverage {
  const result = poolShares(line.pool, amounts, line.quantity, hours);
  return {
    line,
    tally: emptyTally(line.pool.members.length),
    coveredValue: result.coveredValue,
    usedUnits: result.used,
    shares: result.shares,
  };
}
