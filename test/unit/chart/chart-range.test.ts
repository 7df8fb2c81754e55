import { describe, expect, it } from 'vitest';
import { chartDates, MAX_CHART_DAYS } from '../../../shared/domain/chart/chart-range';
import { ValidationError } from '../../../shared/domain/errors';

describe('chart range', () => {
  it('shows the 30 days ending today by default', () => {
    expect(chartDates({}, '2026-07-15')).toEqual({ startDate: '2026-06-16', endDate: '2026-07-15' });
  });

  it('shows 30 days from the start or up to the end when only one is given', () => {
    expect(chartDates({ startDate: '2026-02-15' }, '2026-07-15')).toEqual({
      startDate: '2026-02-15',
      endDate: '2026-03-16',
    });
    expect(chartDates({ endDate: '2026-03-01' }, '2026-07-15')).toEqual({
      startDate: '2026-01-31',
      endDate: '2026-03-01',
    });
  });

  it('takes both dates as given, up to the longest range', () => {
    expect(chartDates({ startDate: '2026-01-01', endDate: '2026-01-01' }, '2026-07-15')).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-01-01',
    });
    expect(chartDates({ startDate: '2026-01-01', endDate: '2036-01-08' }, '2026-07-15').endDate).toBe(
      '2036-01-08',
    );
    expect(() => chartDates({ startDate: '2026-01-01', endDate: '2036-01-09' }, '2026-07-15')).toThrow(
      ValidationError,
    );
    expect(MAX_CHART_DAYS).toBe(3660);
  });
});
