/**
 * The chart projects each stream's hourly profile through the commitments, not its average hour
 * (docs/plan-engine.md, The chart; issue 30, item 8). One Windows m5.large stream ($1 an hour on
 * demand) runs 3, 1, 2, 2, 2, 1 instances in turn, hour after hour, over a 720-hour window
 * (2025-01-01 to 2025-01-31). The org owns A, one reserved instance at $0.5/h bought in 2024, and
 * B, one more at $0.7/h bought when the window began (a plan's line): A is used first.
 *
 * A projected day after the window (24 hours: the pattern four times), by hand:
 *   cost          24 x (0.5 + 0.7)                          = 28.8
 *   A             usage >= 1 every hour: used 24 x 0.5      = 12,   covers 24 x $1 = 24
 *   B             usage >= 2 in 4 hours of 6 (16 of 24): 16 x 0.7 = 11.2, covers 16 x $1 = 16
 *   used          12 + 11.2 = 23.2; utilization 23.2 / 28.8 = 0.80556 (29 / 36)
 *   unutilized    28.8 - 23.2 = 5.6
 *   savings       24 + 16 - 28.8 = 11.2
 * The average hour (11/6 instances) read B as used 5/6 of every hour: utilization 26 / 28.8 =
 * 0.90278, unutilized 2.8, savings 44 - 28.8 = 15.2; each is what the old chart answered.
 */
import { describe, expect, it } from 'vitest';
import { chartSeries } from '../../../shared/domain/engine';
import { commitment, hourly, stream, WINDOW_START } from '../engine/builders';

const PATTERN = [3, 1, 2, 2, 2, 1];
const input = {
  window: { start: WINDOW_START, hours: 720 },
  streams: [stream({ usage: hourly(720, (hour) => PATTERN[hour % PATTERN.length] as number) })],
  commitments: [
    commitment({ id: 'A', recurringCost: 0.5, purchasedAt: '2024-06-01T00:00:00.000Z' }),
    commitment({
      id: 'B',
      recurringCost: 0.7,
      start: WINDOW_START,
      end: '2026-01-01T00:00:00.000Z',
      lockinEnd: '2026-01-01T00:00:00.000Z',
      purchasedAt: WINDOW_START,
    }),
  ],
  offers: [],
  today: '2025-01-31',
};

describe('the chart of a stream whose usage moves hour by hour', () => {
  it('projects each hour of the profile through the commitments, owned first', () => {
    // Act: two projected days after the window.
    const points = chartSeries({ ...input, startDate: '2025-02-01', endDate: '2025-02-02' });

    // Assess
    expect(points).toHaveLength(2);
    for (const point of points) {
      expect(point.is_projection).toBe(true);
      expect(point.utilization).toBeCloseTo(23.2 / 28.8, 12);
      expect(point.unutilized_commit).toBeCloseTo(5.6, 12);
      expect(point.savings).toBeCloseTo(11.2, 12);
      expect(point.net_savings).toBeCloseTo(11.2, 12);
    }
  });

  it('answers the observed day as it was: the same figures, the pattern being the same every day', () => {
    // Act: a day inside the window, read hour by hour.
    const [observed] = chartSeries({ ...input, startDate: '2025-01-10', endDate: '2025-01-10' });

    // Assess: projecting the profile agrees with what was observed.
    expect(observed?.is_projection).toBe(false);
    expect(observed?.utilization).toBeCloseTo(23.2 / 28.8, 12);
    expect(observed?.unutilized_commit).toBeCloseTo(5.6, 12);
    expect(observed?.savings).toBeCloseTo(11.2, 12);
  });
});
