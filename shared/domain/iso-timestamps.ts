/**
 * Strict ISO 8601 parsing for imported files. `Date.parse` accepts far more than ISO 8601 (and
 * reads a timestamp without an offset as local time), so imports parse the forms they document:
 * `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with `Z` or a `+HH:MM` / `-HH:MM` offset, and for dates
 * `YYYY-MM-DD` (midnight UTC). Years run from 1970 to 9999.
 */

const HOUR_MS = 3_600_000;

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface ParsedInstant {
  /** Epoch milliseconds (a fraction finer than a millisecond is cut off). */
  readonly ms: number;
  /** Whether the fraction of a second had digits other than zero. */
  readonly fractional: boolean;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validDate(year: number, month: number, day: number): boolean {
  return year >= 1970 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function parseInstant(text: string): ParsedInstant | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, offsetH = '0', offsetM = '0'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offsetMinutes = Number(offsetH) * 60 + Number(offsetM);
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  if (!zulu && (Number(offsetH) > 23 || Number(offsetM) > 59)) return undefined;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const ms = local - (sign === '-' ? -offsetMinutes : offsetMinutes) * 60_000;
  return { ms, fractional: /[1-9]/.test(fraction) };
}

/** Epoch milliseconds of an ISO 8601 timestamp with an offset; undefined when it is not one. */
export function parseIsoTimestamp(text: string): number | undefined {
  return parseInstant(text)?.ms;
}

/**
 * Hours since the epoch of an ISO 8601 timestamp that falls on a whole UTC hour (any offset);
 * undefined otherwise.
 */
export function parseIsoHour(text: string): number | undefined {
  const instant = parseInstant(text);
  if (!instant || instant.fractional || instant.ms % HOUR_MS !== 0) return undefined;
  return instant.ms / HOUR_MS;
}

/**
 * Epoch milliseconds of an ISO 8601 timestamp with an offset, or of a calendar date
 * (`YYYY-MM-DD`, read as midnight UTC); undefined when it is neither.
 */
export function parseIsoDateOrTimestamp(text: string): number | undefined {
  const date = DATE.exec(text);
  if (!date) return parseIsoTimestamp(text);
  const [, y, m, d] = date;
  const [year, month, day] = [Number(y), Number(m), Number(d)];
  return validDate(year, month, day) ? Date.UTC(year, month - 1, day) : undefined;
}

/** The canonical form stored and shown: UTC, whole seconds without `.000`, e.g. `2026-06-01T13:00:00Z`. */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
