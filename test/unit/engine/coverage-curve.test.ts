import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  breakpoints,
  buildCurve,
  coveredUnits,
  coveredValue,
  peakUnits,
  sortAscending,
} from '../../../shared/domain/engine/curves/coverage-curve';

/** Cov(q) by stacking the tiers hour by hour, highest value first. */
function stackedValue(values: number[], amounts: number[][], q: number): number {
  const hours = amounts[0]?.length ?? 0;
  let total = 0;
  for (let t = 0; t < hours; t++) {
    let left = q;
    values.forEach((value, j) => {
      const covered = Math.min(left, amounts[j]?.[t] ?? 0);
      total += covered * value;
      left -= covered;
    });
  }
  return total / hours;
}

const tiersArbitrary = fc.integer({ min: 1, max: 24 }).chain((hours) =>
  fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }).chain((rawValues) =>
    fc.record({
      values: fc.constant([...rawValues].sort((a, b) => b - a).map((value) => value / 8)),
      amounts: fc.array(
        fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: hours, maxLength: hours }),
        {
          minLength: rawValues.length,
          maxLength: rawValues.length,
        },
      ),
      q: fc.double({ min: 0, max: 90, noNaN: true }),
    }),
  ),
);

describe('coverage curve', () => {
  it('gives p * mean_t min(R[t], q) for one tier of price p', () => {
    // Prepare: R = 10 in 6 hours of 10, 4 in the other 4.
    const usage = Float64Array.from([10, 10, 10, 10, 10, 10, 4, 4, 4, 4]);
    const curve = buildCurve([2], [usage]);

    // Act / Assess: mean min(R, 7) = (6 * 7 + 4 * 4) / 10 = 5.8.
    expect(coveredValue(curve, 7)).toBeCloseTo(2 * 5.8, 12);
    expect(coveredUnits(curve, 7)).toBeCloseTo(5.8, 12);
    expect(coveredValue(curve, 12)).toBeCloseTo(2 * 7.6, 12);
    expect(peakUnits(curve)).toBe(10);
  });

  it('equals stacking the tiers hour by hour, for any tiers and quantity', () => {
    fc.assert(
      fc.property(tiersArbitrary, ({ values, amounts, q }) => {
        // Act
        const curve = buildCurve(
          values,
          amounts.map((amount) => Float64Array.from(amount)),
        );

        // Assess
        expect(coveredValue(curve, q)).toBeCloseTo(stackedValue(values, amounts, q), 8);
      }),
    );
  });

  it('is concave: one more unit is never worth more than the previous one', () => {
    fc.assert(
      fc.property(tiersArbitrary, ({ values, amounts }) => {
        const curve = buildCurve(
          values,
          amounts.map((amount) => Float64Array.from(amount)),
        );
        const steps = Array.from(
          { length: 30 },
          (_, k) => coveredValue(curve, k + 1) - coveredValue(curve, k),
        );
        steps.slice(1).forEach((step, k) => {
          expect(step).toBeLessThanOrEqual((steps[k] ?? 0) + 1e-9);
        });
      }),
    );
  });

  it('lists the distinct positive cumulative amounts as breakpoints', () => {
    // Prepare: tier amounts per hour [1, 0, 2] and [1, 3, 0]: cumulative [1, 0, 2] and [2, 3, 2].
    const curve = buildCurve([3, 1], [Float64Array.from([1, 0, 2]), Float64Array.from([1, 3, 0])]);

    // Act / Assess
    expect([...breakpoints(curve)]).toEqual([1, 2, 3]);
  });
});

describe('sortAscending', () => {
  it('sorts like the built-in typed-array sort', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), {
          maxLength: 300,
        }),
        (values) => {
          // Prepare
          const ours = Float64Array.from(values);
          const expected = Float64Array.from(values).sort();

          // Act
          sortAscending(ours);

          // Assess (-0 and 0 are one number to the engine; `+ 0` makes them one here too)
          expect([...ours].map((value) => value + 0)).toEqual([...expected].map((value) => value + 0));
        },
      ),
    );
  });
});
