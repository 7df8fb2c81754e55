/**
 * Calendar months (UTC) of hourly usage: stored usage is cut into one series per resource and
 * month, named `yyyy-mm`. Hours are counted from the epoch (hour 0 = 1970-01-01T00:00Z).
 */

const HOUR_MS = 3_600_000;

/** The month (`yyyy-mm`) an hour falls in. */
export function monthOfHour(epochHour: number): string {
  return new Date(epochHour * HOUR_MS).toISOString().slice(0, 7);
}

function yearAndMonth(month: string): [number, number] {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const year = Number(match?.[1]);
  const index = Number(match?.[2]);
  if (!match || index < 1 || index > 12) throw new RangeError(`not a month (yyyy-mm): ${month}`);
  return [year, index];
}

/** The first hour of the month. */
export function monthStartHour(month: string): number {
  const [year, index] = yearAndMonth(month);
  return Date.UTC(year, index - 1, 1) / HOUR_MS;
}

export function hoursInMonth(month: string): number {
  const [year, index] = yearAndMonth(month);
  return (Date.UTC(year, index, 1) - Date.UTC(year, index - 1, 1)) / HOUR_MS;
}

/** The months that hours [firstHour, lastHour] touch, in order. */
export function monthsBetween(firstHour: number, lastHour: number): string[] {
  const months: string[] = [];
  for (let hour = firstHour; hour <= lastHour; ) {
    const month = monthOfHour(hour);
    months.push(month);
    hour = monthStartHour(month) + hoursInMonth(month);
  }
  return months;
}
