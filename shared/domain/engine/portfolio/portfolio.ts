/**
 * Usage and the commitments already owned, applied to each other over the lookback window: the
 * profile-independent starting point of planning, resource matches and the chart.
 */
import { ValidationError } from '../../errors';
import { type CoverageGroup, type GroupIndex, groupStreams, indexGroups } from '../groups/groups';
import { type ResidualArena, residualArena } from '../groups/residual-arena';
import { type RateSubjects, rateSubjects } from '../groups/spend-pools';
import { streamKinds } from '../groups/stream-kinds';
import type { PortfolioTotals } from '../plans/figures';
import type {
  CommitmentSharing,
  ExistingCommitment,
  Offer,
  Provider,
  UsageStream,
  UsageWindow,
} from '../shapes/model';
import { type PlanClock, standingAt } from '../shapes/plan-time';
import { activeHours, type HourRange, parseWindowStart } from '../shapes/window-time';
import { bookCommitments, type CommitmentBook } from './commitment-book';
import { commitmentPrice } from './commitment-price';
import { applyCommitments, type CommitmentCoverage } from './existing-commitments';

export interface Portfolio {
  /** The streams with any usage in the window (the others change no figure). */
  readonly streams: readonly UsageStream[];
  /** Per stream: its usage summed over the window. */
  readonly usageTotals: Float64Array;
  /**
   * Per stream: the on-demand price per unit a commitment covers (commitmentPrice: Azure's compute
   * meter only). Coverage is valued at it; the usage's own on-demand cost stays at `ondemandPrice`.
   */
  readonly prices: Float64Array;
  readonly hours: number;
  readonly windowStartMs: number;
  /** Whose usage commitments cover: groups and pools span the org, or one account each. */
  readonly sharing: CommitmentSharing;
  readonly groups: readonly CoverageGroup[];
  readonly groupIndex: GroupIndex;
  readonly rateSubjects: RateSubjects;
  readonly book: CommitmentBook;
  /**
   * Per commitment: the window hours it applies in. With a plan clock, every hour or none
   * (plan-time.ts); without, the hours of the window it was in force in.
   */
  readonly active: readonly HourRange[];
  /**
   * With a plan clock: the commitments (indices into book.commitments) in force at the plan's
   * time that end within the renewal horizon; they apply in no hour. Empty without a clock.
   */
  readonly renewed: readonly number[];
  /**
   * Per stream, per hour: R, the usage left on demand after the existing commitments. Streams no
   * commitment can cover share the input's usage array: never write to these. The others' arrays
   * come from the input's arena: read them only while the computation that lent it runs.
   */
  readonly residual: readonly Float64Array[];
  /** Per stream: R summed over the window. */
  readonly residualTotals: Float64Array;
  readonly coverage: CommitmentCoverage;
}

export interface PortfolioInput {
  readonly window: UsageWindow;
  readonly streams: readonly UsageStream[];
  readonly commitments: readonly ExistingCommitment[];
  readonly offers: readonly Offer[];
  /** Only this provider's streams, commitments and offers; all when absent. */
  readonly provider?: Provider;
  /** Default `organization`. */
  readonly sharing?: CommitmentSharing;
  /** Where covered streams' residual arrays come from; a fresh arena when absent. */
  readonly arena?: ResidualArena;
  /**
   * A plan's clock: commitments apply by their standing at it (plan-time.ts). Absent (the chart):
   * each applies in the window hours it was in force in.
   */
  readonly clock?: PlanClock;
}

/**
 * A usage array summed over its hours; NaN when a value is negative (NaN and infinities make the sum
 * itself non-finite). A function of its own, called per stream: inside a callback the loop compiled
 * to code twice as slow.
 */
function checkedSum(usage: Float64Array): number {
  let total = 0;
  let negative = false;
  for (let t = 0; t < usage.length; t++) {
    const units = usage[t] as number;
    total += units;
    if (units < 0) negative = true;
  }
  return negative ? Number.NaN : total;
}

/**
 * The streams with usage and their totals, checking every usage array on the way (the one pass
 * that reads all the input): one value per window hour, each a finite number >= 0.
 */
function streamsWithUsage(input: PortfolioInput): { streams: UsageStream[]; totals: number[] } {
  const streams: UsageStream[] = [];
  const totals: number[] = [];
  for (let index = 0; index < input.streams.length; index++) {
    const stream = input.streams[index] as UsageStream;
    if (input.provider !== undefined && stream.provider !== input.provider) continue;
    if (stream.usage.length !== input.window.hours) {
      throw new ValidationError('Usage must cover the window', {
        [`streams[${index}].usage`]: [`must hold ${input.window.hours} hourly values`],
      });
    }
    const total = checkedSum(stream.usage);
    if (!Number.isFinite(total)) {
      throw new ValidationError('Usage must hold finite numbers >= 0', {
        [`streams[${index}].usage`]: ['must hold finite numbers >= 0'],
      });
    }
    if (total > 0) {
      streams.push(stream);
      totals.push(total);
    }
  }
  return { streams, totals };
}

export function buildPortfolio(input: PortfolioInput): Portfolio {
  const { window, provider } = input;
  const hours = window.hours;
  const windowStartMs = parseWindowStart(window);
  const { streams, totals } = streamsWithUsage(input);
  const inScope = <T extends { provider: Provider }>(items: readonly T[]) =>
    provider === undefined ? items : items.filter((item) => item.provider === provider);
  const sharing = input.sharing ?? 'organization';
  const kinds = streamKinds(streams);
  const groups = groupStreams(streams, sharing, kinds);
  const groupIndex = indexGroups(groups);
  const subjects = rateSubjects(kinds);
  const prices = Float64Array.from(streams, commitmentPrice);
  const book = bookCommitments(
    streams,
    prices,
    subjects,
    groupIndex,
    inScope(input.commitments),
    inScope(input.offers),
    sharing,
  );
  const { clock } = input;
  const renewed: number[] = [];
  const active = book.commitments.map((booked, c): HourRange => {
    if (!clock) return activeHours(windowStartMs, hours, booked.startMs, booked.endMs);
    const standing = standingAt(clock, booked.startMs, booked.endMs);
    if (standing === 'renewed') renewed.push(c);
    return standing === 'counted' ? { start: 0, end: hours } : { start: 0, end: 0 };
  });
  const usageTotals = Float64Array.from(totals);
  const coverage = applyCommitments(
    book,
    streams.map((stream) => stream.usage),
    usageTotals,
    hours,
    active,
    input.arena ?? residualArena(),
  );
  return {
    streams,
    usageTotals,
    prices,
    hours,
    windowStartMs,
    sharing,
    groups,
    groupIndex,
    rateSubjects: subjects,
    book,
    active,
    renewed,
    residual: coverage.residual,
    residualTotals: coverage.residualTotals,
    coverage,
  };
}

/**
 * Per-hour means over the window of the usage's on-demand value, before and after existing
 * commitments (valued, as new lines are, at what a commitment covers: commitment-price.ts).
 */
export function portfolioTotals(portfolio: Portfolio): PortfolioTotals {
  const { hours, streams, residualTotals, book, active, usageTotals, prices } = portfolio;
  if (hours === 0) return { ondemandValue: 0, residualValue: 0, existingCost: 0 };
  let ondemandValue = 0;
  let residualValue = 0;
  streams.forEach((stream, s) => {
    const total = usageTotals[s] as number;
    const left = residualTotals[s] as number;
    ondemandValue += stream.ondemandPrice * total;
    // Covered units still pay on demand what a commitment does not cover (an Azure VM's license).
    residualValue +=
      stream.ondemandPrice * left + (stream.ondemandPrice - (prices[s] as number)) * (total - left);
  });
  let existingCost = 0;
  book.commitments.forEach((booked, c) => {
    const range = active[c] as HourRange;
    const cost = booked.hourlyCost * (range.end - range.start);
    existingCost += cost;
    // An owned lease's fee (a share of what it saves, as the chart's net_savings charges it) is
    // part of what the org pays for it: without it the plan's before_cost would be low.
    if (booked.feeRate > 0)
      existingCost += booked.feeRate * Math.max(0, coveredOver(portfolio, c, range) - cost);
  });
  return {
    ondemandValue: ondemandValue / hours,
    residualValue: residualValue / hours,
    existingCost: existingCost / hours,
  };
}

/** The on-demand value commitment `c` covered over `range`. */
function coveredOver(portfolio: Portfolio, c: number, range: HourRange): number {
  const covered = portfolio.coverage.coveredValue[c];
  let total = 0;
  if (!covered) return total;
  for (let t = range.start; t < range.end; t++) total += covered[t] ?? 0;
  return total;
}
