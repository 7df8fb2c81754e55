import type { UsageWindow } from '../engine/shapes/model';
import { ValidationError } from '../errors';
import { isoTimestamp } from '../iso-timestamps';

const HOUR_MS = 3_600_000;

/**
 * Standard-time UTC offsets of the regions the catalog prices, so that synthetic office-hours
 * patterns follow the region's clock. Daylight saving time is ignored; unknown regions run on UTC.
 */
const REGION_UTC_OFFSET_HOURS: Readonly<Record<string, number>> = {
  'us-east-1': -5,
  'us-west-2': -8,
  'eu-west-1': 0,
  eastus: -5,
  westeurope: 1,
  'us-central1': -6,
  'europe-west1': 1,
};

export function regionUtcOffsetHours(region: string): number {
  return REGION_UTC_OFFSET_HOURS[region] ?? 0;
}

/** Hour 0 of the window as whole hours since the epoch; the window must start on a UTC hour. */
export function windowStartHour(window: UsageWindow): number {
  const startMs = Date.parse(window.start);
  const fields: Record<string, string[]> = {};
  if (!Number.isFinite(startMs) || startMs % HOUR_MS !== 0) {
    fields['window.start'] = ['must be an ISO 8601 timestamp on a whole UTC hour'];
  }
  if (!Number.isInteger(window.hours) || window.hours <= 0) {
    fields['window.hours'] = ['must be a positive whole number'];
  }
  if (Object.keys(fields).length > 0) throw new ValidationError('invalid usage window', fields);
  return startMs / HOUR_MS;
}

/** An ISO 8601 UTC timestamp (without milliseconds) of an hour since the epoch. */
export function isoHour(epochHour: number): string {
  return isoTimestamp(epochHour * HOUR_MS);
}

/** The region's local clock at each hour of the window. */
export interface LocalClock {
  /** Local hours since the epoch at window hour 0. */
  readonly firstLocalHour: number;
  /** Local hour of day (0-23) of each window hour. */
  readonly hourOfDay: Uint8Array;
  /** 1 when the window hour falls on a local Saturday or Sunday. */
  readonly weekend: Uint8Array;
}

export function localClock(window: UsageWindow, region: string): LocalClock {
  const firstLocalHour = windowStartHour(window) + regionUtcOffsetHours(region);
  const hourOfDay = new Uint8Array(window.hours);
  const weekend = new Uint8Array(window.hours);
  for (let t = 0; t < window.hours; t++) {
    const local = firstLocalHour + t;
    hourOfDay[t] = mod(local, 24);
    weekend[t] = isWeekendDay(Math.floor(local / 24)) ? 1 : 0;
  }
  return { firstLocalHour, hourOfDay, weekend };
}

/** Day 0 of the epoch, 1970-01-01, was a Thursday. */
export function isWeekendDay(epochDay: number): boolean {
  const dayOfWeek = mod(epochDay + 4, 7);
  return dayOfWeek === 0 || dayOfWeek === 6;
}

function mod(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}
