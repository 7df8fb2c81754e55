/**
 * The commitments chart: the portfolio of commitments owned, and the usage they cover, as daily
 * points for ranges up to 92 days and monthly points beyond (docs/http.md).
 *
 * Each point stands for a period P (a UTC day or calendar month, clipped to the range) and its
 * `date` is P's first day. With r_c = upfront_c / term_c + recurring_c the amortized hourly cost of
 * commitment c (so all-upfront and no-upfront commitments compare), and c applying in hour x when
 * start_c <= x < end_c:
 *   remaining_commit  = sum over c with start_c <= tau of r_c * hours of [tau, end_c)   tau = start
 *                       of P: the amortized value still to be consumed of the commitments owned at
 *                       tau (one that starts later is not owned yet: it counts from its first point)
 *   locked_commit     = the same sum over [tau, min(lockinEnd_c, end_c)):
 *                       the part of remaining_commit that cannot be given back
 *   unlocked_commit   = remaining_commit - locked_commit
 *   savings           = sum over the hours of P of (on-demand value of the usage the portfolio
 *                       covered - r_c of each commitment applying)
 *   net_savings       = savings - sum_c fee_rate_c * max(0, covered value_c - cost_c) over P
 *                       (fee_rate_c: the premium of the catalog offer c was bought from)
 *   utilization       = used commitment / commitment over P, both valued at r_c
 *                       (used_c / quantity_c of each applying hour), in [0, 1]; 0 with no commitment
 *   unutilized_commit = commitment - used commitment over P, in dollars
 *   is_projection     = P starts after `today`
 * Usage is the observed usage in the hours of the lookback window. Every other hour (the future, or
 * any hour the window does not reach) is the window's mean hour: the commitments applying in it
 * applied to each hour of the window's usage, stream by stream, and their use averaged over those
 * hours (so a projected day is 24 of the plan's mean hours).
 * Each provider may have a window of its own (`windows`): a provider whose data lags is observed up
 * to its own latest hour and projected after it, never read as zero usage.
 */
import { ValidationError } from '../../errors';
import { residualArena } from '../groups/residual-arena';
import type { BookedCommitment } from '../portfolio/commitment-book';
import { applyCommitments } from '../portfolio/existing-commitments';
import { buildPortfolio, type Portfolio } from '../portfolio/portfolio';
import type {
  CommitmentSharing,
  ExistingCommitment,
  Offer,
  Provider,
  UsageStream,
  UsageWindow,
} from '../shapes/model';
import type { ChartPoint } from '../shapes/plan-shapes';
import { activeHours, DAY_MS, HOUR_MS, type HourRange, isoDate, parseDate } from '../shapes/window-time';

export interface ChartInput {
  /** The lookback window usage is observed over; that of the providers `windows` does not name. */
  readonly window: UsageWindow;
  /** Per provider: the window its streams are observed over, when it is not `window`. */
  readonly windows?: Readonly<Partial<Record<Provider, UsageWindow>>>;
  /** Streams and commitments already filtered to what the chart shows (provider, filter criteria). */
  readonly streams: readonly UsageStream[];
  readonly commitments: readonly ExistingCommitment[];
  readonly offers: readonly Offer[];
  /** Whose usage the commitments cover (the org's `commitment_sharing`); default `organization`. */
  readonly sharing?: CommitmentSharing;
  /**
   * Ids of the commitments whose figures the points sum (a chart filter on contract type, term or
   * payment option); every commitment applies all the same. Absent or null: all of them.
   */
  readonly selected?: ReadonlySet<string> | null;
  /** `YYYY-MM-DD`, both inclusive. */
  readonly startDate: string;
  readonly endDate: string;
  /** `YYYY-MM-DD`: points of later periods are projections. */
  readonly today: string;
}

/** docs/http.md: daily points up to this many days, monthly beyond. */
export const MAX_DAILY_POINTS = 92;

interface Period {
  readonly start: number;
  readonly end: number;
}

function periods(from: number, to: number): Period[] {
  const days = (to - from) / DAY_MS;
  const result: Period[] = [];
  if (days <= MAX_DAILY_POINTS) {
    for (let day = from; day < to; day += DAY_MS) result.push({ start: day, end: day + DAY_MS });
    return result;
  }
  let start = from;
  while (start < to) {
    // Not Date.UTC(year, ...): it reads years 0 to 99 as 1900 to 1999.
    const next = new Date(start);
    next.setUTCMonth(next.getUTCMonth() + 1, 1);
    const nextMonth = next.getTime();
    result.push({ start, end: Math.min(to, nextMonth) });
    start = nextMonth;
  }
  return result;
}

/** Per commitment, what it did over a period. */
interface PeriodTally {
  readonly cost: Float64Array;
  readonly usedCost: Float64Array;
  readonly coveredValue: Float64Array;
}

const ceilHour = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

/** What each commitment does in a projected hour: the mean over the window's hours (below). */
interface MeanHour {
  /** Per commitment: pool units used. */
  readonly used: Float64Array;
  /** Per commitment: on-demand dollars covered. */
  readonly coveredValue: Float64Array;
}

/**
 * The projected hour under each set of applying commitments, computed once per set: the set
 * applied to every hour of the window's usage, each stream with its own hourly profile (as a plan
 * applies commitments), and what each commitment used and covered averaged over those hours. Not
 * the set applied to each stream's average hour: commitments take the usage of each hour up to
 * their quantity, so averaging the usage first hides the hours it falls below them
 * (docs/plan-engine.md, The chart).
 */
function meanHourCoverage(portfolio: Portfolio) {
  const { streams, hours, book, usageTotals } = portfolio;
  const usage = streams.map((stream) => stream.usage);
  const cache = new Map<string, MeanHour>();
  // Each set's residuals are read only until its means are summed: the next set reuses the memory.
  const arena = residualArena();
  return (applying: readonly boolean[]): MeanHour => {
    const key = applying.map((on) => (on ? '1' : '0')).join('');
    let mean = cache.get(key);
    if (!mean) {
      const active = applying.map((on): HourRange => ({ start: 0, end: on ? hours : 0 }));
      // The portfolio applied this set to these hours already when each commitment applied in all
      // of the window or none of it (the usual case once the window is past); with none applying
      // no figure is read.
      const same = active.every((range, c) => {
        const applied = portfolio.active[c] as HourRange;
        return range.end === 0 ? applied.end <= applied.start : applied.start === 0 && applied.end === hours;
      });
      arena.reset();
      const coverage =
        same || !applying.includes(true)
          ? portfolio.coverage
          : applyCommitments(book, usage, usageTotals, hours, active, arena);
      mean = {
        used: Float64Array.from(coverage.used, (perHour) => meanOf(perHour, hours)),
        coveredValue: Float64Array.from(coverage.coveredValue, (perHour) => meanOf(perHour, hours)),
      };
      cache.set(key, mean);
    }
    return mean;
  };
}

function meanOf(values: Float64Array, hours: number): number {
  if (hours === 0) return 0;
  let total = 0;
  for (let t = 0; t < values.length; t++) total += values[t] as number;
  return total / hours;
}

function tallyPeriod(
  portfolio: Portfolio,
  period: Period,
  meanHour: (applying: readonly boolean[]) => MeanHour,
): PeriodTally {
  const { book, coverage, windowStartMs, hours } = portfolio;
  const count = book.commitments.length;
  const tally: PeriodTally = {
    cost: new Float64Array(count),
    usedCost: new Float64Array(count),
    coveredValue: new Float64Array(count),
  };
  const usedShare = (booked: BookedCommitment, used: number) =>
    booked.quantity > 0 ? used / booked.quantity : 0;

  // Observed hours: the window's hours that start inside the period.
  const observed = activeHours(windowStartMs, hours, period.start, period.end);
  book.commitments.forEach((booked, c) => {
    const range = portfolio.active[c] as HourRange;
    const used = coverage.used[c] as Float64Array;
    const covered = coverage.coveredValue[c] as Float64Array;
    for (let t = Math.max(observed.start, range.start); t < Math.min(observed.end, range.end); t++) {
      tally.cost[c] = (tally.cost[c] ?? 0) + booked.hourlyCost;
      tally.usedCost[c] = (tally.usedCost[c] ?? 0) + booked.hourlyCost * usedShare(booked, used[t] ?? 0);
      tally.coveredValue[c] = (tally.coveredValue[c] ?? 0) + (covered[t] ?? 0);
    }
  });

  // Other hours: the mean hour, in stretches where the same commitments apply.
  const windowEnd = windowStartMs + hours * HOUR_MS;
  const stretches: Period[] = [
    { start: period.start, end: Math.min(period.end, windowStartMs) },
    { start: Math.max(period.start, windowEnd), end: period.end },
  ];
  const edges = book.commitments.flatMap((booked) => [ceilHour(booked.startMs), ceilHour(booked.endMs)]);
  for (const stretch of stretches) {
    if (stretch.end <= stretch.start) continue;
    const cuts = [
      stretch.start,
      ...edges.filter((edge) => edge > stretch.start && edge < stretch.end),
      stretch.end,
    ];
    const sorted = [...new Set(cuts)].sort((a, b) => a - b);
    for (let k = 0; k + 1 < sorted.length; k++) {
      const from = sorted[k] as number;
      const stretchHours = Math.ceil(((sorted[k + 1] as number) - from) / HOUR_MS);
      if (stretchHours <= 0) continue;
      const applying = book.commitments.map((booked) => booked.startMs <= from && from < booked.endMs);
      const hour = meanHour(applying);
      book.commitments.forEach((booked, c) => {
        if (!applying[c]) return;
        tally.cost[c] = (tally.cost[c] ?? 0) + booked.hourlyCost * stretchHours;
        const used = usedShare(booked, hour.used[c] ?? 0);
        tally.usedCost[c] = (tally.usedCost[c] ?? 0) + booked.hourlyCost * used * stretchHours;
        tally.coveredValue[c] = (tally.coveredValue[c] ?? 0) + (hour.coveredValue[c] ?? 0) * stretchHours;
      });
    }
  }
  return tally;
}

/**
 * Value still to be consumed after `tau` of the commitments owned at `tau` (started by then), up to
 * `until(c)`.
 */
function commitValue(
  commitments: readonly BookedCommitment[],
  tau: number,
  until: (c: BookedCommitment) => number,
) {
  let value = 0;
  for (const booked of commitments) {
    if (booked.startMs > tau) continue;
    const to = Math.min(until(booked), booked.endMs);
    if (to > tau) value += (booked.hourlyCost * (to - tau)) / HOUR_MS;
  }
  return value;
}

/** A portfolio over its own window: one per provider with a window of its own, one for the rest. */
interface ChartedPortfolio {
  readonly portfolio: Portfolio;
  readonly meanHour: (applying: readonly boolean[]) => MeanHour;
}

function chartedPortfolios(input: ChartInput): ChartedPortfolio[] {
  const own = input.windows ?? {};
  const parts = new Map<
    Provider | 'rest',
    { window: UsageWindow; streams: UsageStream[]; commitments: ExistingCommitment[] }
  >();
  const partOf = (provider: Provider) => {
    const window = own[provider];
    const key = window ? provider : 'rest';
    let part = parts.get(key);
    if (!part) {
      part = { window: window ?? input.window, streams: [], commitments: [] };
      parts.set(key, part);
    }
    return part;
  };
  for (const stream of input.streams) partOf(stream.provider).streams.push(stream);
  for (const commitment of input.commitments) partOf(commitment.provider).commitments.push(commitment);
  return [...parts.values()].map((part) => {
    const portfolio = buildPortfolio({ ...part, offers: input.offers, sharing: input.sharing });
    return { portfolio, meanHour: meanHourCoverage(portfolio) };
  });
}

/** What one commitment did over a chart period: its cost, the part of it used, the value it covered. */
export interface CommitmentUse {
  readonly commitment: ExistingCommitment;
  /** Amortized cost over the period's hours it applies in. */
  readonly cost: number;
  /** The part of that cost whose units were used (used_c / quantity_c of each hour). */
  readonly usedCost: number;
  /** On-demand value covered. */
  readonly coveredValue: number;
}

interface BookedUse extends CommitmentUse {
  readonly booked: BookedCommitment;
}

/** Per chart period, in order: what each commitment of every charted portfolio did over it. */
function periodUses(input: ChartInput): { readonly period: Period; readonly uses: BookedUse[] }[] {
  const { from, to } = chartRange(input);
  const charted = chartedPortfolios(input);
  return periods(from, to).map((period) => ({
    period,
    uses: charted.flatMap(({ portfolio, meanHour }) => {
      const tally = tallyPeriod(portfolio, period, meanHour);
      return portfolio.book.commitments.map((booked, c) => ({
        booked,
        commitment: booked.commitment,
        cost: tally.cost[c] ?? 0,
        usedCost: tally.usedCost[c] ?? 0,
        coveredValue: tally.coveredValue[c] ?? 0,
      }));
    }),
  }));
}

/**
 * Per chart period (the periods of chartSeries, in order), what each commitment did: the figures
 * a chart point sums. A commitment's utilization over the period is usedCost / cost.
 */
export function commitmentUses(
  input: ChartInput,
): { readonly date: string; readonly uses: CommitmentUse[] }[] {
  return periodUses(input).map(({ period, uses }) => ({
    date: isoDate(period.start),
    uses: uses.map(({ commitment, cost, usedCost, coveredValue }) => ({
      commitment,
      cost,
      usedCost,
      coveredValue,
    })),
  }));
}

function chartRange(input: ChartInput): { from: number; to: number } {
  const from = parseDate(input.startDate, 'start_date');
  const to = parseDate(input.endDate, 'end_date') + DAY_MS;
  if (to <= from)
    throw new ValidationError('end_date is before start_date', { end_date: ['before start_date'] });
  return { from, to };
}

export function chartSeries(input: ChartInput): ChartPoint[] {
  chartRange(input); // the range's errors before today's, as the fields come
  const today = parseDate(input.today, 'today');
  const selected = input.selected ?? null;
  return periodUses(input).map(({ period, uses: applied }): ChartPoint => {
    const uses = selected ? applied.filter((use) => selected.has(use.commitment.id)) : applied;
    let cost = 0;
    let usedCost = 0;
    let covered = 0;
    let fees = 0;
    for (const use of uses) {
      cost += use.cost;
      usedCost += use.usedCost;
      covered += use.coveredValue;
      fees += use.booked.feeRate * Math.max(0, use.coveredValue - use.cost);
    }
    const booked = uses.map((use) => use.booked);
    const remaining = commitValue(booked, period.start, (entry) => entry.endMs);
    const locked = commitValue(booked, period.start, (entry) => entry.lockinEndMs);
    const savings = covered - cost;
    return {
      date: isoDate(period.start),
      remaining_commit: remaining,
      locked_commit: locked,
      unlocked_commit: remaining - locked,
      savings,
      net_savings: savings - fees,
      utilization: cost > 0 ? Math.min(1, usedCost / cost) : 0,
      unutilized_commit: Math.max(0, cost - usedCost),
      is_projection: period.start > today,
    };
  });
}
