import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../../shared/store/caching/bounded-cache';

/** A clock the test moves by hand. */
function manualClock(start = 0) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

/** A loader that counts its calls and answers `value(key)`. */
function countingLoader<V>(value: (key: string) => V | null) {
  const loads: string[] = [];
  return {
    loads,
    load: (key: string) => async () => {
      loads.push(key);
      return value(key);
    },
  };
}

describe('bounded cache', () => {
  it('loads a key once and answers it from memory until it is too old', async () => {
    // Prepare
    const clock = manualClock();
    const cache = new BoundedCache<string>({ maxEntries: 10, maxAgeMs: 1_000, clock });
    const loader = countingLoader((key) => `value of ${key}`);

    // Act
    const first = await cache.get('a', loader.load('a'));
    clock.advance(999);
    const cached = await cache.get('a', loader.load('a'));
    clock.advance(1);
    const reloaded = await cache.get('a', loader.load('a'));

    // Assess
    expect([first, cached, reloaded]).toEqual(['value of a', 'value of a', 'value of a']);
    expect(loader.loads).toEqual(['a', 'a']);
  });

  it('forgets the least recently used key beyond its size', async () => {
    // Prepare
    const cache = new BoundedCache<string>({ maxEntries: 2, maxAgeMs: 60_000, clock: manualClock() });
    const loader = countingLoader((key) => key);
    await cache.get('a', loader.load('a'));
    await cache.get('b', loader.load('b'));
    await cache.get('a', loader.load('a'));

    // Act
    await cache.get('c', loader.load('c'));
    await cache.get('a', loader.load('a'));
    await cache.get('b', loader.load('b'));

    // Assess: `b` was the least recently used when `c` came, so only it was loaded again.
    expect(loader.loads).toEqual(['a', 'b', 'c', 'b']);
    expect(cache.size).toBe(2);
  });

  it('shares one load among concurrent gets of a key', async () => {
    // Prepare
    const cache = new BoundedCache<string>({ maxEntries: 2, maxAgeMs: 60_000, clock: manualClock() });
    const loader = countingLoader((key) => key);

    // Act
    const values = await Promise.all([cache.get('a', loader.load('a')), cache.get('a', loader.load('a'))]);

    // Assess
    expect(values).toEqual(['a', 'a']);
    expect(loader.loads).toEqual(['a']);
  });

  it('keeps neither a null answer nor a failure', async () => {
    // Prepare
    const cache = new BoundedCache<string>({ maxEntries: 2, maxAgeMs: 60_000, clock: manualClock() });
    const missing = countingLoader<string>(() => null);
    let failures = 0;
    const failing = async () => {
      failures += 1;
      throw new Error('storage unavailable');
    };

    // Act
    await cache.get('gone', missing.load('gone'));
    await cache.get('gone', missing.load('gone'));
    await expect(cache.get('broken', failing)).rejects.toThrow('storage unavailable');
    await expect(cache.get('broken', failing)).rejects.toThrow('storage unavailable');

    // Assess
    expect(missing.loads).toEqual(['gone', 'gone']);
    expect(failures).toBe(2);
    expect(cache.size).toBe(0);
  });
});
