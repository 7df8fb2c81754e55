import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../local/demo/seeded-random';

function draws(random: { next(): number }, count: number): number[] {
  return Array.from({ length: count }, () => random.next());
}

describe('seeded random', () => {
  it('repeats its sequence for the same seed, whether given as a number or text', () => {
    expect(draws(seededRandom(42), 100)).toEqual(draws(seededRandom('42'), 100));
    expect(draws(seededRandom(42), 100)).not.toEqual(draws(seededRandom(43), 100));
  });

  it('draws uniformly in [0, 1)', () => {
    // Act
    const values = draws(seededRandom('uniform'), 20_000);

    // Assess
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeCloseTo(0.5, 1);
    const lowTenth = values.filter((value) => value < 0.1).length / values.length;
    expect(lowTenth).toBeCloseTo(0.1, 1);
  });

  it('keeps integers, picks and weighted picks within their ranges', () => {
    const random = seededRandom('ranges');
    const ints = Array.from({ length: 1000 }, () => random.int(3, 5));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5]));
    expect(random.pick(['only'])).toBe('only');
    const picks = Array.from({ length: 1000 }, () =>
      random.weighted([
        ['rare', 1],
        ['common', 9],
        ['never', 0],
      ] as const),
    );
    expect(picks).not.toContain('never');
    expect(picks.filter((pick) => pick === 'common').length).toBeGreaterThan(800);
    expect(() => random.pick([])).toThrow(RangeError);
  });

  it('forks generators that do not depend on how much the parent was used', () => {
    // Prepare
    const fresh = seededRandom('parent');
    const used = seededRandom('parent');
    draws(used, 50);

    // Act
    const fromFresh = draws(fresh.fork('child'), 20);
    const fromUsed = draws(used.fork('child'), 20);

    // Assess
    expect(fromUsed).toEqual(fromFresh);
    expect(draws(seededRandom('parent').fork('other'), 20)).not.toEqual(fromFresh);
  });

  it('draws normal values around the mean', () => {
    const random = seededRandom('normal');
    const values = Array.from({ length: 20_000 }, () => random.normal(10, 2));
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
    expect(mean).toBeCloseTo(10, 1);
    expect(Math.sqrt(variance)).toBeCloseTo(2, 1);
  });
});
