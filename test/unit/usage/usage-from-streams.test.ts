import { describe, expect, it } from 'vitest';
import { providerUsageFromStreams } from '../../../shared/domain/usage/imported-usage';
import { monthStartHour } from '../../../shared/domain/usage/usage-months';
import { m5LargeStream } from '../../support/usage-streams';

describe('providerUsageFromStreams', () => {
  it('cuts each stream into the months its window touches, covering exactly the window', () => {
    // Prepare: four hours, the last two of October and the first two of November 2026.
    const start = monthStartHour('2026-11') - 2;

    // Act
    const usage = providerUsageFromStreams('aws', start, [m5LargeStream('i-1', [1, 0.5, 0.25, 1])]);

    // Assess
    expect(usage.covered).toEqual({ firstHour: start, lastHour: start + 3 });
    expect(usage.rows).toBe(4);
    const months = usage.series[0]?.months;
    expect([...(months?.keys() ?? [])]).toEqual(['2026-10', '2026-11']);
    const october = months?.get('2026-10') as Float64Array;
    const november = months?.get('2026-11') as Float64Array;
    expect(october).toHaveLength(744);
    expect([...october.slice(742)]).toEqual([1, 0.5]);
    expect(october.slice(0, 742).every((value) => value === 0)).toBe(true);
    expect([...november.slice(0, 2)]).toEqual([0.25, 1]);
    expect(november.slice(2).every((value) => value === 0)).toBe(true);
  });

  it('keeps the resource description and drops only the hourly values', () => {
    // Act
    const usage = providerUsageFromStreams('aws', 0, [m5LargeStream('i-2', [1])]);

    // Assess
    const { usage: _values, ...description } = m5LargeStream('i-2', [1]);
    expect(usage.series[0]?.resource).toEqual(description);
    expect(usage.series[0]?.resource).not.toHaveProperty('usage');
  });
});
