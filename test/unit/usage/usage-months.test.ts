import { describe, expect, it } from 'vitest';
import { replaceCoveredHours } from '../../../shared/domain/usage/imported-usage';
import {
  hoursInMonth,
  monthOfHour,
  monthStartHour,
  monthsBetween,
} from '../../../shared/domain/usage/usage-months';

const HOUR_MS = 3_600_000;
const hourOf = (iso: string) => Date.parse(iso) / HOUR_MS;

describe('usage months', () => {
  it('names the UTC month of an hour and counts its hours, leap years included', () => {
    expect(monthOfHour(hourOf('2026-06-30T23:00:00Z'))).toBe('2026-06');
    expect(monthOfHour(hourOf('2026-07-01T00:00:00Z'))).toBe('2026-07');
    expect(monthStartHour('2026-07')).toBe(hourOf('2026-07-01T00:00:00Z'));
    expect([
      hoursInMonth('2026-06'),
      hoursInMonth('2026-07'),
      hoursInMonth('2024-02'),
      hoursInMonth('2025-02'),
    ]).toEqual([720, 744, 696, 672]);
    expect(() => monthStartHour('2026-13')).toThrow(RangeError);
  });

  it('lists the months a range of hours touches, across a year end', () => {
    expect(monthsBetween(hourOf('2025-12-31T23:00:00Z'), hourOf('2026-02-01T00:00:00Z'))).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
    expect(monthsBetween(hourOf('2026-06-05T00:00:00Z'), hourOf('2026-06-05T00:00:00Z'))).toEqual([
      '2026-06',
    ]);
  });
});

describe('replacing covered hours of a month', () => {
  const june = monthStartHour('2026-06');
  const covered = { firstHour: june + 2, lastHour: june + 4 };

  it('takes the import on covered hours and keeps the stored values elsewhere', () => {
    // Prepare
    const stored = new Float64Array(720).fill(7);
    const imported = new Float64Array(720);
    imported.set([0, 0, 1, 0, 3]);

    // Act
    const values = replaceCoveredHours('2026-06', covered, stored, imported);

    // Assess
    expect([...values.slice(0, 6)]).toEqual([7, 7, 1, 0, 3, 7]);
    expect(values[719]).toBe(7);
    expect(stored[2]).toBe(7);
  });

  it('clears covered hours of a resource the import does not name, and fills a new one with zeros', () => {
    // Act
    const cleared = replaceCoveredHours('2026-06', covered, new Float64Array(720).fill(7), undefined);
    const created = replaceCoveredHours('2026-06', covered, undefined, new Float64Array(720).fill(1));

    // Assess
    expect([...cleared.slice(0, 6)]).toEqual([7, 7, 0, 0, 0, 7]);
    expect([...created.slice(0, 6)]).toEqual([0, 0, 1, 1, 1, 0]);
  });

  it('covers a whole month when the covered hours reach past both its ends', () => {
    // Act
    const values = replaceCoveredHours(
      '2026-06',
      { firstHour: june - 10, lastHour: june + 800 },
      new Float64Array(720).fill(7),
      undefined,
    );

    // Assess
    expect(values.every((value) => value === 0)).toBe(true);
  });
});
