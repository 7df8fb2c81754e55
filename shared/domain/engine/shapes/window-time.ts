/**
 * Time arithmetic of the usage window: hour t of a window covers [start + t h, start + (t + 1) h).
 * Instants are epoch milliseconds (UTC); dates are `YYYY-MM-DD` (UTC calendar days).
 */
import { ValidationError } from '../../errors';
import type { UsageWindow } from './model';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** docs/http.md: monthly figures are hourly figures x 730. */
export const HOURS_PER_MONTH = 730;

/** A half-open range [start, end) of hour indices of a window. */
export interface HourRange {
  readonly start: number;
  readonly end: number;
}

export function parseInstant(value: string, field: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new ValidationError(`${field} is not an ISO 8601 instant`, { [field]: ['invalid'] });
  return ms;
}

/** The window's start, which must be a whole UTC hour (all hour arithmetic runs on that grid). */
export function parseWindowStart(window: UsageWindow): number {
  const ms = parseInstant(window.start, 'window.start');
  if (ms % HOUR_MS !== 0) {
    throw new ValidationError('window.start must be a whole UTC hour', {
      'window.start': ['not a whole hour'],
    });
  }
  return ms;
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Midnight UTC of a `YYYY-MM-DD` date. */
export function parseDate(value: string, field: string): number {
  const ms = DATE_PATTERN.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new ValidationError(`${field} is not a YYYY-MM-DD date`, { [field]: ['invalid'] });
  return ms;
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function fullRange(window: UsageWindow): HourRange {
  return { start: 0, end: window.hours };
}

/**
 * The hours of `window` inside the days `startDate`..`endDate` (both inclusive):
 * [startDate 00:00Z, endDate + 1 day 00:00Z) intersected with the window; empty when they do not meet.
 */
export function hourRangeForDates(window: UsageWindow, startDate: string, endDate: string): HourRange {
  const windowStart = parseWindowStart(window);
  const from = parseDate(startDate, 'start_date');
  const to = parseDate(endDate, 'end_date') + DAY_MS;
  if (to <= from)
    throw new ValidationError('end_date is before start_date', { end_date: ['before start_date'] });
  return activeHours(windowStart, window.hours, from, to);
}

/**
 * Window hours in which a thing that applies over [from, to) applies: hour t counts when
 * from <= start of hour t < to. Returned as a range of hour indices (possibly empty).
 */
export function activeHours(windowStart: number, hours: number, from: number, to: number): HourRange {
  const clamp = (hour: number) => Math.min(hours, Math.max(0, hour));
  const start = clamp(Math.ceil((from - windowStart) / HOUR_MS));
  const end = clamp(Math.ceil((to - windowStart) / HOUR_MS));
  return { start, end: Math.max(start, end) };
}
