import { ValidationError } from '../errors';

/** docs/http.md: the chart shows the last 30 days unless asked otherwise. */
export const DEFAULT_CHART_DAYS = 30;
/** Longest range one chart covers (about ten years: 120 monthly points). */
export const MAX_CHART_DAYS = 3660;

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The chart's days (`YYYY-MM-DD`, both included): the 30 days ending `today` when neither is
 * given; 30 days from `startDate` or up to `endDate` when only one is. A ValidationError names
 * `end_date` when the range is longer than MAX_CHART_DAYS.
 */
export function chartDates(
  request: { readonly startDate?: string; readonly endDate?: string },
  today: string,
): { startDate: string; endDate: string } {
  const last = DEFAULT_CHART_DAYS - 1;
  const endDate = request.endDate ?? (request.startDate ? addDays(request.startDate, last) : today);
  const startDate = request.startDate ?? addDays(endDate, -last);
  const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_CHART_DAYS) {
    throw new ValidationError('The chart range is too long', {
      end_date: [`must be at most ${MAX_CHART_DAYS} days after start_date`],
    });
  }
  return { startDate, endDate };
}
