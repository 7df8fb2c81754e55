/**
 * The quantity rule and the chart of docs/plan-engine.md, checked on random inputs: a brute force
 * over every quantity, monotony in hazard and usage, and the chart's identities.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartSeries } from '../../../shared/domain/engine/chart/chart';
import { survivalSums } from '../../../shared/domain/engine/curves/survival';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { DEFAULT_PROFILES } from '../../../shared/domain/engine/shapes/engine-input';
import type { PlanProfile } from '../../../shared/domain/engine/shapes/model';
import { engineInput, HIGH_SAVINGS, offer, stream } from './builders';
import { closeTo, everyNumber, inputArbitrary } from './random-engine-inputs';

describe('quantities on random inputs (one offer)', () => {
  const singleOfferArbitrary = fc.record({
    usage: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 24 }),
    extra: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 24, maxLength: 24 }),
    rateShare: fc.double({ min: 0.05, max: 1, noNaN: true }),
    feeRate: fc.constantFrom(0, 0.15, 0.4),
    lockinHours: fc.constantFrom(720, 8760),
  });
  const inputFor = (
    usage: readonly number[],
    rateShare: number,
    feeRate: number,
    lockinHours: number,
    profiles: readonly PlanProfile[] = [HIGH_SAVINGS],
  ) =>
    engineInput({
      hours: usage.length,
      streams: [stream({ usage: [...usage] })],
      offers: [offer({ id: 'o1', recurring: rateShare, feeRate, lockinHours })],
      profiles,
    });
  const quantityOf = (result: ReturnType<typeof computePlans>, index = 0) =>
    result.plans[index]?.lineItems[0]?.selected_quantity ?? 0;

  it('chooses a quantity no other quantity beats (brute force over every quantity)', () => {
    fc.assert(
      fc.property(singleOfferArbitrary, fc.constantFrom(0, 0.01, 0.03), (spec, hazard) => {
        // Prepare
        const profiles = [{ name: 'Recommended' as const, hazard }];
        const input = inputFor(spec.usage, spec.rateShare, spec.feeRate, spec.lockinHours, profiles);
        const { liveHours: A, billedHours: B } = survivalSums(hazard, 8760, spec.lockinHours);
        const value = (q: number) => {
          const covered = spec.usage.reduce((sum, units) => sum + Math.min(units, q), 0) / spec.usage.length;
          const r = spec.rateShare;
          return covered * A - r * B * q - spec.feeRate * A * Math.max(0, covered - r * q);
        };

        // Act
        const chosen = quantityOf(computePlans(input));

        // Assess
        const best = value(chosen);
        for (let q = 0; q <= Math.max(...spec.usage); q++) {
          // Steps gaining less than 1e-9 of a unit's cost over the term count as rounding noise.
          const noise = 1e-9 * (Math.abs(best) + spec.rateShare * B * Math.max(...spec.usage)) + 1e-12;
          expect(value(q)).toBeLessThanOrEqual(best + noise);
        }
      }),
    );
  });

  it('never covers more under a higher hazard', () => {
    fc.assert(
      fc.property(singleOfferArbitrary, (spec) => {
        // Act
        const result = computePlans(
          inputFor(spec.usage, spec.rateShare, spec.feeRate, spec.lockinHours, DEFAULT_PROFILES),
        );
        const [recommended, balanced, highSavings] = result.plans.map(
          (entry) => entry.plan.commitment_coverage,
        );

        // Assess: hazards 0.03 >= 0.01 >= 0.
        expect(recommended).toBeLessThanOrEqual((balanced ?? 0) + 1e-12);
        expect(balanced).toBeLessThanOrEqual((highSavings ?? 0) + 1e-12);
      }),
    );
  });

  it('never lowers the optimal quantity when usage is added', () => {
    fc.assert(
      fc.property(singleOfferArbitrary, (spec) => {
        // Prepare
        const more = spec.usage.map((units, hour) => units + (spec.extra[hour] ?? 0));

        // Act
        const before = quantityOf(
          computePlans(inputFor(spec.usage, spec.rateShare, spec.feeRate, spec.lockinHours)),
        );
        const after = quantityOf(
          computePlans(inputFor(more, spec.rateShare, spec.feeRate, spec.lockinHours)),
        );

        // Assess
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
  });
});

describe('chart on random inputs', () => {
  it('keeps utilization in [0, 1], unlocked = remaining - locked, and every number finite', () => {
    fc.assert(
      fc.property(
        inputArbitrary,
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: -5, max: 5 }),
        (input, startDay, days, todayDay) => {
          // Prepare
          const day = (offset: number) => new Date(Date.UTC(2025, 0, 1 + offset)).toISOString().slice(0, 10);

          // Act
          const points = chartSeries({
            ...input,
            startDate: day(startDay),
            endDate: day(startDay + days),
            today: day(todayDay),
          });

          // Assess
          for (const point of points) {
            everyNumber(point, (path, number) => {
              expect(Number.isFinite(number), path).toBe(true);
            });
            expect(point.utilization).toBeGreaterThanOrEqual(0);
            expect(point.utilization).toBeLessThanOrEqual(1);
            expect(point.unutilized_commit).toBeGreaterThanOrEqual(0);
            closeTo(point.unlocked_commit, point.remaining_commit - point.locked_commit);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
