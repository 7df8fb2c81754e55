import { describe, expect, it } from 'vitest';
import { activeHours, hourRangeForDates } from '../../../shared/domain/engine/shapes/window-time';
import { ValidationError } from '../../../shared/domain/errors';

const WINDOW = { start: '2025-01-01T00:00:00.000Z', hours: 720 };

describe('hourRangeForDates', () => {
  it('takes whole days, end date included', () => {
    expect(hourRangeForDates(WINDOW, '2025-01-02', '2025-01-03')).toEqual({ start: 24, end: 72 });
  });

  it('clips to the window and is empty when the days are outside it', () => {
    expect(hourRangeForDates(WINDOW, '2024-12-01', '2025-01-01')).toEqual({ start: 0, end: 24 });
    expect(hourRangeForDates(WINDOW, '2025-01-30', '2025-03-01')).toEqual({ start: 696, end: 720 });
    expect(hourRangeForDates(WINDOW, '2025-06-01', '2025-06-02')).toEqual({ start: 720, end: 720 });
  });

  it('rejects malformed dates and an end before the start', () => {
    expect(() => hourRangeForDates(WINDOW, '2025-1-2', '2025-01-03')).toThrow(ValidationError);
    expect(() => hourRangeForDates(WINDOW, '2025-01-03', '2025-01-01')).toThrow(ValidationError);
  });
});

describe('activeHours', () => {
  it('counts hour t when from <= start of hour t < to', () => {
    const start = Date.parse(WINDOW.start);
    const hour = 3_600_000;
    // [00:30, 03:00): hours starting at 01:00 and 02:00.
    expect(activeHours(start, 10, start + hour / 2, start + 3 * hour)).toEqual({ start: 1, end: 3 });
    expect(activeHours(start, 10, start - 5 * hour, start - hour)).toEqual({ start: 0, end: 0 });
  });
});
