import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/errors';
import {
  isoHour,
  isWeekendDay,
  localClock,
  regionUtcOffsetHours,
  windowStartHour,
} from '../../../shared/domain/usage/local-time';

describe('local time of synthetic usage', () => {
  it('knows weekends: 1970-01-03 was a Saturday, 2026-06-01 a Monday', () => {
    expect(isWeekendDay(2)).toBe(true);
    expect(isWeekendDay(3)).toBe(true);
    expect(isWeekendDay(4)).toBe(false);
    expect(isWeekendDay(Date.parse('2026-06-01T00:00:00Z') / 86_400_000)).toBe(false);
    expect(isWeekendDay(Date.parse('2026-06-06T00:00:00Z') / 86_400_000)).toBe(true);
  });

  it('reads the window hours in the region clock', () => {
    // Act
    const clock = localClock({ start: '2026-06-01T00:00:00Z', hours: 48 }, 'us-east-1');

    // Assess
    expect(regionUtcOffsetHours('us-east-1')).toBe(-5);
    expect(clock.hourOfDay[0]).toBe(19);
    // Midnight UTC on Monday is Sunday evening in Virginia.
    expect(clock.weekend[0]).toBe(1);
    expect(clock.weekend[5]).toBe(0);
    expect(regionUtcOffsetHours('mars-north-1')).toBe(0);
  });

  it('accepts windows that start on a whole UTC hour only', () => {
    expect(windowStartHour({ start: '1970-01-01T05:00:00Z', hours: 1 })).toBe(5);
    expect(isoHour(5)).toBe('1970-01-01T05:00:00Z');
    expect(() => windowStartHour({ start: 'yesterday', hours: 1 })).toThrow(ValidationError);
    expect(() => windowStartHour({ start: '1970-01-01T05:00:00Z', hours: 0 })).toThrow(ValidationError);
  });
});
