/**
 * Resource matches: each stream's share of each line item over a range of hours, hour by hour.
 * For a stream s matched to line l (h hours in the range, all figures per-hour means; units are the
 * stream's own usage units, p its on-demand price):
 *   total_units            = sum_t u_s[t] / h
 *   before_uncovered_units = what was left on demand just before l: after existing commitments and
 *                            (for savings-plan lines) after the plan's reservations
 *   after_covered_units    = units l covered;  after_uncovered_units = before_uncovered - after_covered
 *   if_all / before / covered / after _ondemand_cost = p x total / before_uncovered / covered / after_uncovered
 *   before_reserved_cost   = cost of the commitments covering s before l (existing ones: the cost of
 *                            the units s used; the plan's reservations: their share below)
 *   after_reserved_cost    = before_reserved_cost + share_s x (q r + fee_l)
 *   before_cost / after_cost = on-demand + reserved;  average_savings = before_cost - after_cost
 *   coverage               = (total - after_uncovered) / total
 * where fee_l = fee_rate * max(0, covered value of l - q r) over the range and share_s is s's part of
 * the on-demand value l covered (when l covered nothing: of its uncovered value; else equal parts).
 * So over the matches of l: covered_ondemand_cost sums to l's covered_ondemand_cost and
 * average_savings to l's savings, for the whole window and for any sub-range alike.
 * A line's matches are the streams of its pool with usage left before it (all of them if none has).
 */

import { isSpendLine } from '../curves/planned-line';
import { effectiveRate } from '../curves/quantity';
import { sumOverHours } from '../groups/hour-sums';
import type { Portfolio } from '../portfolio/portfolio';
import type { UsageStream } from '../shapes/model';
import type { Resource, ResourceMatch } from '../shapes/plan-shapes';
import { resourceDescriber } from '../shapes/resources';
import { DAY_MS, HOUR_MS, HOURS_PER_MONTH, type HourRange, isoDate } from '../shapes/window-time';
import type { LineCoverage } from '../tallies/line-coverage';
import { pairUuidWriter, uuidBytes } from './pair-id';

export interface LineResourceMatch {
  readonly lineItemId: string;
  readonly match: ResourceMatch;
}

function firstUsedHour(usage: Float64Array): number {
  let t = 0;
  while (t < usage.length - 1 && (usage[t] as number) <= 0) t++;
  return t;
}

function lastUsedHour(usage: Float64Array): number {
  let t = usage.length - 1;
  while (t > 0 && (usage[t] as number) <= 0) t--;
  return Math.max(0, t);
}

/** What matches need of each stream over one range, each computed once on first use. */
export interface MatchRange {
  readonly range: HourRange;
  /** Per-hour mean over the range of the stream's usage. */
  usageMean(s: number): number;
  /** Per-hour mean over the range of the existing-commitment cost attributed to the stream. */
  existingCostMean(s: number): number;
  resource(s: number): Resource;
  /** Id of the match of a line item (its id's uuidBytes) and a stream. */
  matchId(lineItem: Uint8Array, s: number): string;
}

export function matchRange(portfolio: Portfolio, orgId: string, range: HourRange): MatchRange {
  const count = portfolio.streams.length;
  const hours = range.end - range.start;
  const days = new Map<number, string>();
  const dayOf = (hour: number) => {
    const day = Math.floor((portfolio.windowStartMs + hour * HOUR_MS) / DAY_MS);
    let date = days.get(day);
    if (date === undefined) {
      date = isoDate(day * DAY_MS);
      days.set(day, date);
    }
    return date;
  };
  const usage = new Float64Array(count).fill(Number.NaN);
  const existingCost = new Float64Array(count).fill(Number.NaN);
  const resources: (Resource | undefined)[] = new Array(count).fill(undefined);
  // Per stream, the bytes of its resource uuid, parsed once.
  const resourceBytes: (Uint8Array | undefined)[] = new Array(count).fill(undefined);
  const describeResource = resourceDescriber(orgId);
  // The same for every stream's record.
  const usageStart = dayOf(range.start);
  const usageEnd = dayOf(range.end - 1);
  const priceDate = dayOf(0);
  const pairUuid = pairUuidWriter();
  return {
    range,
    usageMean(s) {
      if (Number.isNaN(usage[s])) {
        const total =
          range.start === 0 && range.end === portfolio.hours
            ? (portfolio.usageTotals[s] as number)
            : sumOverHours((portfolio.streams[s] as UsageStream).usage, range.start, range.end);
        usage[s] = total / hours;
      }
      return usage[s] as number;
    },
    existingCostMean(s) {
      if (Number.isNaN(existingCost[s])) {
        existingCost[s] = portfolio.coverage.attributedCost(s, range) / hours;
      }
      return existingCost[s] as number;
    },
    resource(s) {
      let resource = resources[s];
      if (!resource) {
        const stream = portfolio.streams[s] as UsageStream;
        const dates = {
          usageStart,
          usageEnd,
          firstSeen: dayOf(firstUsedHour(stream.usage)),
          lastSeen: dayOf(lastUsedHour(stream.usage)),
          priceDate,
        };
        // Matched to a line item: some offer reserves it.
        resource = describeResource(stream, dates, true);
        resources[s] = resource;
      }
      return resource;
    },
    matchId(lineItem, s) {
      let bytes = resourceBytes[s];
      if (!bytes) {
        bytes = uuidBytes(this.resource(s).resource_id);
        resourceBytes[s] = bytes;
      }
      return pairUuid(lineItem, bytes);
    },
  };
}

/** The pool members a line's matches are about (positions in the pool) and each one's cost share. */
interface CostShares {
  readonly positions: Int32Array;
  readonly shares: Float64Array;
}

/**
 * The pool members a line's matches are about (those with usage left before the line, or all of
 * them if none has) and each one's share of the line's cost: its part of the on-demand value the
 * line covered; when the line covered nothing, of the value left uncovered; else equal parts.
 */
function costShares(coverage: LineCoverage, prices: Float64Array): CostShares {
  const { line, tally } = coverage;
  const members = line.pool.members;
  let count = 0;
  for (let position = 0; position < members.length; position++) {
    if ((tally.before[position] as number) > 0) count++;
  }
  const all = count === 0;
  const positions = new Int32Array(all ? members.length : count);
  count = 0;
  for (let position = 0; position < members.length; position++) {
    if (all || (tally.before[position] as number) > 0) positions[count++] = position;
  }
  const basis = coverage.coveredValue > 0 ? tally.covered : tally.before;
  const shares = new Float64Array(positions.length);
  let total = 0;
  for (let k = 0; k < positions.length; k++) {
    const position = positions[k] as number;
    const weight = (basis[position] as number) * (prices[members[position] as number] as number);
    shares[k] = weight;
    total += weight;
  }
  for (let k = 0; k < shares.length; k++)
    shares[k] = total > 0 ? (shares[k] as number) / total : 1 / shares.length;
  return { positions, shares };
}

function resourceMatch(
  id: string,
  resource: Resource,
  stream: UsageStream,
  totalUnits: number,
  before: number,
  covered: number,
  beforeReserved: number,
  /** The stream's share of the line's amortized cost and fee. */
  lineCost: number,
  /** What the line's coverage avoids per unit (commitmentPrice): p, or Azure's compute rate. */
  coveredPrice: number,
): ResourceMatch {
  const p = stream.ondemandPrice;
  const uncovered = before - covered;
  const afterReserved = beforeReserved + lineCost;
  // Covered units still pay on demand what the commitment does not cover (an Azure VM's license).
  const afterOndemand = uncovered * p + covered * (p - coveredPrice);
  const beforeCost = before * p + beforeReserved;
  const afterCost = afterOndemand + afterReserved;
  return {
    id,
    total_units: totalUnits,
    before_uncovered_units: before,
    after_covered_units: covered,
    after_uncovered_units: uncovered,
    ondemand_price: p,
    if_all_ondemand_cost: totalUnits * p,
    before_ondemand_cost: before * p,
    after_ondemand_cost: afterOndemand,
    covered_ondemand_cost: covered * coveredPrice,
    before_reserved_cost: beforeReserved,
    after_reserved_cost: afterReserved,
    before_cost: beforeCost,
    after_cost: afterCost,
    monthly_before_cost: beforeCost * HOURS_PER_MONTH,
    monthly_after_cost: afterCost * HOURS_PER_MONTH,
    monthly_after_reserved_cost: afterReserved * HOURS_PER_MONTH,
    monthly_after_ondemand_cost: afterOndemand * HOURS_PER_MONTH,
    average_savings: beforeCost - afterCost,
    average_monthly_savings: (beforeCost - afterCost) * HOURS_PER_MONTH,
    usage_type: stream.usageType,
    coverage: totalUnits > 0 ? Math.min(1, Math.max(0, (totalUnits - uncovered) / totalUnits)) : 0,
    resource,
  };
}

/**
 * A plan's resource matches as rows of figures, in line order: what varies per (line, stream) is
 * computed with the plan, the spec's records are built from a row on demand (`at`, iteration).
 * A plan has one match per (line item, stream), tens of thousands of them, and a record carries
 * some 60 fields; where they are stored or served they are turned into records one by one.
 */
export interface MatchTable extends Iterable<LineResourceMatch> {
  readonly size: number;
  /** The record of row k (0 <= k < size; a RangeError otherwise), built on each call. */
  at(k: number): LineResourceMatch;
  /** The portfolio index of row k's stream. */
  streamAt(k: number): number;
}

export interface MatchSet {
  readonly matches: MatchTable;
  /** Per coverage (same order): the sum of its matches' before_reserved_cost. */
  readonly beforeReservedCost: readonly number[];
}

/** The per-row figures of a match table, per-hour means over its range. */
interface MatchRows {
  readonly line: Int32Array;
  readonly stream: Int32Array;
  readonly before: Float64Array;
  readonly covered: Float64Array;
  readonly beforeReserved: Float64Array;
  readonly lineCost: Float64Array;
}

function matchRows(size: number): MatchRows {
  return {
    line: new Int32Array(size),
    stream: new Int32Array(size),
    before: new Float64Array(size),
    covered: new Float64Array(size),
    beforeReserved: new Float64Array(size),
    lineCost: new Float64Array(size),
  };
}

function matchTable(
  streams: readonly UsageStream[],
  prices: Float64Array,
  view: MatchRange,
  lineItemIds: readonly string[],
  rows: MatchRows,
  size: number,
): MatchTable {
  const lineItemBytes = lineItemIds.map(uuidBytes);
  const at = (k: number): LineResourceMatch => {
    if (!(k >= 0 && k < size)) throw new RangeError(`no resource match ${k}: the table has ${size}`);
    const line = rows.line[k] as number;
    const s = rows.stream[k] as number;
    const match = resourceMatch(
      view.matchId(lineItemBytes[line] as Uint8Array, s),
      view.resource(s),
      streams[s] as UsageStream,
      view.usageMean(s),
      rows.before[k] as number,
      rows.covered[k] as number,
      rows.beforeReserved[k] as number,
      rows.lineCost[k] as number,
      prices[s] as number,
    );
    return { lineItemId: lineItemIds[line] as string, match };
  };
  return {
    size,
    at,
    streamAt: (k) => rows.stream[k] as number,
    *[Symbol.iterator]() {
      for (let k = 0; k < size; k++) yield at(k);
    },
  };
}

/** `lineItemIds[k]` names `coverages[k]`; coverages in application order, computed over the view's range. */
export function buildResourceMatches(
  portfolio: Portfolio,
  view: MatchRange,
  coverages: readonly LineCoverage[],
  lineItemIds: readonly string[],
): MatchSet {
  const hours = view.range.end - view.range.start;
  const sharesOf = hours > 0 ? coverages.map((coverage) => costShares(coverage, portfolio.prices)) : [];
  const size = sharesOf.reduce((total, { positions }) => total + positions.length, 0);
  const rows = matchRows(size);
  // Per stream: the hourly cost of the plan's reservations covering it (read by savings-plan lines).
  const planReservedCost = new Float64Array(portfolio.streams.length);
  let k = 0;
  const beforeReservedCost: number[] = [];
  // A loop, not a callback: the row loop inside a callback compiled to slower code.
  for (let index = 0; index < coverages.length; index++) {
    const shared = sharesOf[index];
    if (!shared) {
      beforeReservedCost.push(0);
      continue;
    }
    const coverage = coverages[index] as LineCoverage;
    const { line, tally } = coverage;
    const spend = isSpendLine(line);
    const amortized = line.quantity * effectiveRate(line.offer);
    const lineCost = amortized + line.offer.feeRate * Math.max(0, coverage.coveredValue / hours - amortized);
    const { positions, shares } = shared;
    let reservedSum = 0;
    for (let i = 0; i < positions.length; i++, k++) {
      const position = positions[i] as number;
      const share = shares[i] as number;
      const s = line.pool.members[position] as number;
      const beforeReserved = view.existingCostMean(s) + (planReservedCost[s] as number);
      reservedSum += beforeReserved;
      if (!spend) planReservedCost[s] = (planReservedCost[s] as number) + share * lineCost;
      rows.line[k] = index;
      rows.stream[k] = s;
      rows.before[k] = (tally.before[position] as number) / hours;
      rows.covered[k] = (tally.covered[position] as number) / hours;
      rows.beforeReserved[k] = beforeReserved;
      rows.lineCost[k] = share * lineCost;
    }
    beforeReservedCost.push(reservedSum);
  }
  return {
    matches: matchTable(portfolio.streams, portfolio.prices, view, lineItemIds, rows, size),
    beforeReservedCost,
  };
}
