import { describe, expect, it } from 'vitest';
import { generateFleet, type SyntheticStream } from '../../../local/demo/synthetic-fleet';
import type { UsagePattern } from '../../../local/demo/usage-patterns';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { Provider } from '../../../shared/domain/engine/shapes/model';
import { ValidationError } from '../../../shared/domain/errors';
import { localClock } from '../../../shared/domain/usage/local-time';

const catalog = loadCatalog();
// A Monday, 30 days.
const window = { start: '2026-06-01T00:00:00Z', hours: 720 };
const PROVIDERS: Provider[] = ['aws', 'azure', 'gcp'];

const fleets = new Map(
  PROVIDERS.map((provider) => [
    provider,
    generateFleet({ seed: 'fleet-test', provider, streams: 2000, window, catalog }),
  ]),
);

function fleetOf(provider: Provider): SyntheticStream[] {
  return fleets.get(provider) ?? [];
}

function withPattern(provider: Provider, pattern: UsagePattern): SyntheticStream[] {
  return fleetOf(provider).filter((stream) => stream.pattern === pattern);
}

/** Mean usage over the hours (local to each stream's region) that `select` accepts. */
function meanOver(
  streams: readonly SyntheticStream[],
  select: (hourOfDay: number, weekend: boolean, t: number) => boolean,
): number {
  let sum = 0;
  let count = 0;
  for (const stream of streams) {
    const clock = localClock(window, stream.region);
    for (let t = 0; t < window.hours; t++) {
      if (!select(clock.hourOfDay[t] ?? 0, clock.weekend[t] === 1, t)) continue;
      sum += stream.usage[t] ?? 0;
      count += 1;
    }
  }
  return sum / count;
}

describe('synthetic fleet', () => {
  it('is identical for the same seed and different for another', () => {
    // Act
    const first = generateFleet({ seed: 7, provider: 'aws', streams: 120, window, catalog });
    const again = generateFleet({ seed: 7, provider: 'aws', streams: 120, window, catalog });
    const other = generateFleet({ seed: 8, provider: 'aws', streams: 120, window, catalog });

    // Assess
    expect(again).toEqual(first);
    expect(other.map((stream) => stream.resourceId)).not.toEqual(first.map((stream) => stream.resourceId));
  });

  it.each(PROVIDERS)(
    'gives %s the requested number of streams, each a fraction of every hour',
    (provider) => {
      // Act
      const fleet = fleetOf(provider);

      // Assess
      expect(fleet).toHaveLength(2000);
      expect(new Set(fleet.map((stream) => stream.resourceId)).size).toBe(fleet.length);
      for (const stream of fleet) {
        expect(stream.provider).toBe(provider);
        expect(stream.usage).toHaveLength(window.hours);
        expect(stream.usage.every((value) => Number.isFinite(value) && value >= 0 && value <= 1)).toBe(true);
      }
    },
  );

  it.each(PROVIDERS)('runs %s instances the catalog prices, at the catalog price', (provider) => {
    const fleet = fleetOf(provider);
    for (const stream of fleet) {
      expect(catalog.ondemandPrice(stream)).toBe(stream.ondemandPrice);
      expect(catalog.pricedInstance(stream)?.service).toBe(stream.service);
    }
  });

  it.each(PROVIDERS)('mixes every usage pattern in a %s fleet', (provider) => {
    const patterns = new Set(fleetOf(provider).map((stream) => stream.pattern));
    expect([...patterns].sort()).toEqual(['bursty', 'declining', 'dev', 'diurnal', 'growing', 'steady']);
  });

  it('builds AWS fleets of EC2 and RDS with some Windows', () => {
    const fleet = fleetOf('aws');
    expect(fleet.some((stream) => stream.service === 'AmazonRDS' && stream.operatingSystem === 'MySQL')).toBe(
      true,
    );
    expect(fleet.some((stream) => stream.operatingSystem === 'Windows')).toBe(true);
  });

  it('returns no streams for an empty fleet and rejects a malformed window', () => {
    expect(generateFleet({ seed: 1, provider: 'gcp', streams: 0, window, catalog })).toEqual([]);
    const misaligned = { start: '2026-06-01T00:30:00Z', hours: 720 };
    expect(() =>
      generateFleet({ seed: 1, provider: 'gcp', streams: 5, window: misaligned, catalog }),
    ).toThrow(ValidationError);
    expect(() => generateFleet({ seed: 1, provider: 'gcp', streams: 2.5, window, catalog })).toThrow(
      ValidationError,
    );
  });
});

describe.each(PROVIDERS)('usage patterns on %s', (provider) => {
  it('keeps steady instances on nearly every hour', () => {
    expect(meanOver(withPattern(provider, 'steady'), () => true)).toBeGreaterThan(0.98);
  });

  it('switches dev boxes off at night and at weekends, on during weekday office hours', () => {
    // Prepare
    const devBoxes = withPattern(provider, 'dev');

    // Act
    const night = meanOver(devBoxes, (hour) => hour < 6);
    const weekend = meanOver(devBoxes, (_, isWeekend) => isWeekend);
    const officeHours = meanOver(devBoxes, (hour, isWeekend) => !isWeekend && hour >= 11 && hour < 16);

    // Assess
    expect(night).toBeLessThan(0.1);
    expect(weekend).toBeLessThan(0.1);
    expect(officeHours).toBeGreaterThan(0.75);
  });

  it('follows the day and the week in autoscaled web tiers', () => {
    // Prepare
    const webTiers = withPattern(provider, 'diurnal');

    // Act
    const weekdayAfternoon = meanOver(webTiers, (hour, isWeekend) => !isWeekend && hour >= 13 && hour < 17);
    const weekdayNight = meanOver(webTiers, (hour, isWeekend) => !isWeekend && hour >= 2 && hour < 5);
    const weekday = meanOver(webTiers, (_, isWeekend) => !isWeekend);
    const weekend = meanOver(webTiers, (_, isWeekend) => isWeekend);

    // Assess
    expect(weekdayNight).toBeLessThan(weekdayAfternoon * 0.8);
    expect(weekend).toBeLessThan(weekday * 0.85);
  });

  it('scales worker pools out for bursts and back in', () => {
    // Prepare
    const workers = withPattern(provider, 'bursty');

    // Act
    const mean = meanOver(workers, () => true);
    const everyWorkerRan = workers.every((stream) => stream.usage.some((value) => value === 1));

    // Assess
    expect(mean).toBeLessThan(0.4);
    expect(everyWorkerRan).toBe(true);
  });

  it('grows rolled-out services and shrinks retired ones', () => {
    const firstWeek = (_: number, __: boolean, t: number) => t < 168;
    const lastWeek = (_: number, __: boolean, t: number) => t >= window.hours - 168;
    const growing = withPattern(provider, 'growing');
    const declining = withPattern(provider, 'declining');
    expect(meanOver(growing, lastWeek)).toBeGreaterThan(meanOver(growing, firstWeek) + 0.3);
    expect(meanOver(declining, firstWeek)).toBeGreaterThan(meanOver(declining, lastWeek) + 0.3);
  });
});
