/**
 * Cell values of an export as its reader hands them over: text from CSV, typed values from
 * Parquet (strings, numbers, bigints, Dates, null).
 */

const HOUR_MS = 3_600_000;

export function exportText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return String(value);
}

/** A number, or NaN when the value is none. */
export function exportNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value !== '' && value !== 'NULL') return Number(value);
  return Number.NaN;
}

/**
 * `2026-06-01T13:00:00Z`, `2026-06-01T13:00:00.000Z`, `2026-06-01 13:00:00` (FOCUS CSV without a
 * zone is UTC), `2026-06-01T15:00:00+02:00`.
 */
const timestampText =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/;

/** The epoch hour a timestamp falls in, or undefined when it is no timestamp. */
export function exportHour(value: unknown): number | undefined {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? undefined : Math.floor(ms / HOUR_MS);
  }
  if (typeof value !== 'string') return undefined;
  const match = timestampText.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, , sign, oh, om] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  return Math.floor((ms - offsetMinutes * 60_000) / HOUR_MS);
}

/** Reads the hour of a timestamp cell: exportHour, or the same answer remembered. */
export type HourReader = (value: unknown) => number | undefined;

/**
 * An exportHour that parses each run of equal texts once (lines of one hour come together). It
 * remembers the last text it read: whoever reads an export makes one and owns it (a batch's row
 * mapper, export-rows.ts), so this module keeps no state between reads.
 */
export function exportHourReader(): HourReader {
  let lastText = '';
  let lastHour: number | undefined;
  return (value) => {
    if (typeof value !== 'string') return exportHour(value);
    if (value === lastText) return lastHour;
    lastText = value;
    lastHour = exportHour(value);
    return lastHour;
  };
}
