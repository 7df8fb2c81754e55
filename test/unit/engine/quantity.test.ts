import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakpoints, buildCurve } from '../../../shared/domain/engine/curves/coverage-curve';
import {
  chooseQuantity,
  levelLadder,
  type OfferEconomics,
  stepLadder,
  totalValue,
  unitValue,
} from '../../../shared/domain/engine/curves/quantity';

const economicsArbitrary: fc.Arbitrary<OfferEconomics> = fc
  .record({
    rate: fc.double({ min: 0.01, max: 2, noNaN: true }),
    liveHours: fc.double({ min: 1, max: 26280, noNaN: true }),
    extraBilled: fc.double({ min: 0, max: 5000, noNaN: true }),
    feeRate: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ rate, liveHours, extraBilled, feeRate }) => ({
    rate,
    liveHours,
    billedHours: liveHours + extraBilled,
    feeRate,
  }));

describe('the value of one unit, V', () => {
  it('never decreases with the value P a unit covers, fee included (so V(k) is non-increasing in k)', () => {
    fc.assert(
      fc.property(
        economicsArbitrary,
        fc.double({ min: 0, max: 5, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        (economics, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(unitValue(high, economics)).toBeGreaterThanOrEqual(unitValue(low, economics) - 1e-9);
        },
      ),
    );
  });
});

describe('chooseQuantity', () => {
  it('buys the largest quantity whose last unit has positive value, and no other level is worth more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        economicsArbitrary,
        (usage, price, economics) => {
          // Prepare
          const curve = buildCurve([price], [Float64Array.from(usage)]);
          const ladder = stepLadder(1, Math.max(...usage));

          // Act
          const choice = chooseQuantity(curve, ladder, economics);

          // Assess: brute force over every level, with W computed from the hours directly.
          const hours = usage.length;
          const value = (q: number) => {
            const covered = (price * usage.reduce((sum, units) => sum + Math.min(units, q), 0)) / hours;
            const { rate, liveHours, billedHours, feeRate } = economics;
            return (
              covered * liveHours -
              rate * billedHours * q -
              feeRate * liveHours * Math.max(0, covered - rate * q)
            );
          };
          // Steps gaining less than 1e-9 of a unit's cost over the term count as rounding noise.
          const scale = Math.max(
            1,
            Math.abs(choice.value),
            economics.rate * economics.billedHours * ladder.size,
          );
          for (let level = 0; level <= ladder.size; level++) {
            expect(value(level)).toBeLessThanOrEqual(choice.value + 1e-9 * scale);
          }
          expect(value(choice.quantity)).toBeCloseTo(choice.value, 6);
        },
      ),
    );
  });

  it('commits 10 units at r/p = 0.55 and 4 at r/p = 0.65 for 10 units 60% of the time and 4 the rest', () => {
    // Prepare: F(k) = 1 for k <= 4, 0.6 for 5 <= k <= 10. With h = 0 and no fee, buy unit k iff F(k) > r/p.
    const curve = buildCurve([1], [Float64Array.from([10, 10, 10, 10, 10, 10, 4, 4, 4, 4])]);
    const ladder = stepLadder(1, 10);
    const at = (rate: number): OfferEconomics => ({ rate, liveHours: 8760, billedHours: 8760, feeRate: 0 });

    // Act / Assess
    expect(chooseQuantity(curve, ladder, at(0.55)).quantity).toBe(10);
    expect(chooseQuantity(curve, ladder, at(0.65)).quantity).toBe(4);
    // W(10) = T * (7.6 - 10 * 0.55) = 8760 * 2.1
    expect(chooseQuantity(curve, ladder, at(0.55)).value).toBeCloseTo(8760 * 2.1, 6);
  });

  it('chooses among observed levels for savings plans, stopping where the curve drops below the rate', () => {
    // Prepare: one tier of value 1.25 (20% discount): levels 0.8 and 1.6 $/h, in half the hours each.
    const curve = buildCurve([1.25], [Float64Array.from([0.8, 1.6])]);
    const ladder = levelLadder(Float64Array.from([0.8, 1.6]));
    const economics: OfferEconomics = { rate: 1, liveHours: 8760, billedHours: 8760, feeRate: 0 };

    // Act
    const choice = chooseQuantity(curve, ladder, economics);

    // Assess: the step 0.8 -> 1.6 covers 1.25 on-demand dollars per dollar in half the hours (0.625 < 1).
    expect(choice.quantity).toBe(0.8);
    expect(choice.value).toBeCloseTo(totalValue(curve, 0.8, economics), 9);
  });

  it('treats levels that differ only by rounding as one level, so the search still finds the best', () => {
    // Prepare: two tiers whose stacked amounts give both 3.9 and 3.9000000000000004 as levels; the
    // step between them is 4e-16 wide and its value per unit is noise.
    const curve = buildCurve(
      [1.7, 1.3],
      [
        Float64Array.from([1.3, 3.7, 3.5, 1.2, 0.4, 0.3, 3.9, 3.4, 1.3]),
        Float64Array.from([3, 3.3, 3.5, 1.6, 1.7, 0, 3.3, 3.6, 2.6]),
      ],
    );
    const levels = breakpoints(curve);
    const economics: OfferEconomics = { rate: 0.99, liveHours: 8760, billedHours: 8760, feeRate: 0 };
    const best = Math.max(...[...levels].map((level) => totalValue(curve, level, economics)));

    // Act
    const choice = chooseQuantity(curve, levelLadder(levels), economics);

    // Assess: 3.5 is the last level whose step covers more than r = 0.99 per unit.
    expect(levels).toContain(3.9000000000000004);
    expect(choice.quantity).toBe(3.5);
    expect(choice.value).toBeCloseTo(best, 6);
  });
});
