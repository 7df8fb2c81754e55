import { describe, expect, it } from 'vitest';
import { survivalSums } from '../../../shared/domain/engine/curves/survival';

/** A and B summed hour by hour, as docs/plan-engine.md writes them. */
function directSums(hazard: number, termHours: number, lockinHours: number) {
  let live = 0;
  let billed = lockinHours;
  for (let t = 0; t < termHours; t++) {
    const survival = (1 - hazard) ** (t / 730);
    live += survival;
    if (t >= lockinHours) billed += survival;
  }
  return { live, billed };
}

describe('survivalSums', () => {
  it('counts every hour of the term when usage never fades (h = 0)', () => {
    // Act
    const sums = survivalSums(0, 8760, 720);

    // Assess
    expect(sums).toEqual({ liveHours: 8760, billedHours: 8760 });
  });

  it.each([
    [0.03, 8760, 8760],
    [0.03, 8760, 720],
    [0.01, 26280, 26280],
    [0.5, 720, 0],
    [1e-9, 8760, 720],
  ])('equals the hour-by-hour sums for h = %d, T = %d, L = %d', (hazard, term, lockin) => {
    // Prepare
    const direct = directSums(hazard, term, lockin);

    // Act
    const sums = survivalSums(hazard, term, lockin);

    // Assess
    expect(sums.liveHours).toBeCloseTo(direct.live, 6);
    expect(sums.billedHours).toBeCloseTo(direct.billed, 6);
  });

  it('bills the lock-in in full: B - A = L - sum of S(t) over the lock-in', () => {
    // Prepare: one month of lock-in at 3% a month: about 720 * (1 - 0.985) hours of lost usage.
    const { liveHours, billedHours } = survivalSums(0.03, 8760, 720);

    // Assess
    expect(billedHours - liveHours).toBeGreaterThan(10);
    expect(billedHours - liveHours).toBeLessThan(11);
  });
});
