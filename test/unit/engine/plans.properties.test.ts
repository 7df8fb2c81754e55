/**
 * The identities of docs/plan-engine.md, checked on random inputs: the engine's contract.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartSeries } from '../../../shared/domain/engine/chart/chart';
import { survivalSums } from '../../../shared/domain/engine/curves/survival';
import { resourceMatchesForWindow } from '../../../shared/domain/engine/matches/window-matches';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { DEFAULT_PROFILES, type EngineInput } from '../../../shared/domain/engine/shapes/engine-input';
import type {
  ExistingCommitment,
  Offer,
  PlanProfile,
  UsageStream,
} from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, offer, stream } from './builders';

const closeTo = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));

const usageArbitrary = (hours: number) =>
  // Whole instances, or minutes of an instance-hour (usage records are not finer than that).
  fc.array(
    fc.oneof(
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 0, max: 360 }).map((minutes) => minutes / 60),
    ),
    {
      minLength: hours,
      maxLength: hours,
    },
  );

/** Streams of exact (Windows) and size-flexible (Linux m5) kinds in two accounts. */
const streamArbitrary = (hours: number, index: number): fc.Arbitrary<UsageStream> =>
  fc
    .record({
      kind: fc.constantFrom('windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge'),
      account: fc.constantFrom('a', 'b'),
      price: fc.constantFrom(0.5, 1, 2),
      usage: usageArbitrary(hours),
    })
    .map(({ kind, account, price, usage }) => {
      const linux = kind.startsWith('linux');
      return stream({
        resourceId: `r-${index}`,
        accountId: account,
        instanceType: kind === 'windows-r5' ? 'r5.large' : kind === 'linux-xlarge' ? 'm5.xlarge' : 'm5.large',
        operatingSystem: linux ? 'Linux' : 'Windows',
        // Linux m5 at 0.125 per normalized unit (large = 4 units, xlarge = 8): one price per unit.
        ondemandPrice: linux ? (kind === 'linux-xlarge' ? 1 : 0.5) : price,
        usage,
      });
    });

const offerArbitrary = (index: number): fc.Arbitrary<Offer> =>
  fc
    .record({
      target: fc.constantFrom('windows-m5', 'windows-r5', 'linux-m5', 'spend'),
      rateShare: fc.double({ min: 0.2, max: 1.1, noNaN: true }),
      upfrontShare: fc.constantFrom(0, 0.5, 1),
      feeRate: fc.constantFrom(0, 0.1, 0.3),
      term: fc.constantFrom(8760, 26280),
      guaranteed: fc.boolean(),
      discounts: fc.tuple(
        fc.double({ min: 0, max: 0.7, noNaN: true }),
        fc.double({ min: 0, max: 0.7, noNaN: true }),
      ),
    })
    .map(({ target, rateShare, upfrontShare, feeRate, term, guaranteed, discounts }) => {
      // r = rateShare * (price per unit): upfrontShare of it paid upfront over the term.
      const unitPrice = target === 'linux-m5' ? 0.125 : target === 'spend' ? 1 : 1;
      const rate = target === 'spend' ? 1 : rateShare * unitPrice;
      const scope: Offer['scope'] =
        target === 'spend'
          ? {
              kind: 'spend',
              rates: [
                { family: 'm5', discount: discounts[0] },
                { family: 'r5', discount: discounts[1] },
              ],
            }
          : target === 'linux-m5'
            ? {
                kind: 'family',
                region: 'us-east-1',
                family: 'm5',
                operatingSystem: 'Linux',
                tenancy: 'Shared',
              }
            : {
                kind: 'instance',
                region: 'us-east-1',
                instanceType: target === 'windows-r5' ? 'r5.large' : 'm5.large',
                operatingSystem: 'Windows',
                tenancy: 'Shared',
              };
      return offer({
        id: `offer-${index}`,
        contractType: target === 'spend' ? 'compute_plans' : guaranteed ? 'leased_ris' : 'standard_ris',
        term: guaranteed ? 'thirty_day_gris' : term === 8760 ? 'one_year' : 'three_year',
        scope,
        termHours: term,
        lockinHours: guaranteed ? 720 : term,
        upfront: rate * upfrontShare * term,
        recurring: rate * (1 - upfrontShare),
        feeRate,
      });
    });

const commitmentArbitrary = (index: number): fc.Arbitrary<ExistingCommitment> =>
  fc
    .record({
      account: fc.constantFrom('a', 'b'),
      spend: fc.boolean(),
      quantity: fc.integer({ min: 0, max: 4 }),
      startHour: fc.integer({ min: -10, max: 20 }),
      length: fc.integer({ min: 1, max: 40 }),
      recurringCost: fc.double({ min: 0, max: 2, noNaN: true }),
    })
    .map(({ account, spend, quantity, startHour, length, recurringCost }) => {
      const at = (hour: number) => new Date(Date.UTC(2025, 0, 1) + hour * 3_600_000).toISOString();
      return commitment({
        id: `c-${index}`,
        accountId: account,
        contractType: spend ? 'compute_plans' : 'standard_ris',
        instanceType: spend ? null : 'm5.large',
        quantity: spend ? 0 : quantity,
        hourlyCommitment: spend ? quantity / 2 : 0,
        recurringCost,
        start: at(startHour),
        end: at(startHour + length),
        lockinEnd: at(startHour + length),
      });
    });

const inputArbitrary: fc.Arbitrary<EngineInput> = fc.integer({ min: 1, max: 24 }).chain((hours) =>
  fc
    .record({
      streams: fc
        .integer({ min: 1, max: 5 })
        .chain((count) =>
          fc.tuple(...Array.from({ length: count }, (_, index) => streamArbitrary(hours, index))),
        ),
      offers: fc
        .integer({ min: 1, max: 4 })
        .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => offerArbitrary(index)))),
      commitments: fc
        .integer({ min: 0, max: 2 })
        .chain((count) =>
          fc.tuple(...Array.from({ length: count }, (_, index) => commitmentArbitrary(index))),
        ),
    })
    .map(({ streams, offers, commitments }) => engineInput({ hours, streams, offers, commitments })),
);

function everyNumber(value: unknown, visit: (path: string, number: number) => void, path = ''): void {
  if (typeof value === 'number') visit(path, value);
  else if (Array.isArray(value)) {
    value.forEach((entry, index) => {
      everyNumber(entry, visit, `${path}[${index}]`);
    });
  } else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const [key, entry] of Object.entries(value)) everyNumber(entry, visit, `${path}.${key}`);
  }
}

describe('plan identities on random inputs', () => {
  it('gives finite numbers everywhere and fractions in [0, 1]', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        // Act
        const result = computePlans(input);

        // Assess
        everyNumber(result, (path, number) => {
          expect(Number.isFinite(number), path).toBe(true);
        });
        for (const { plan, resourceMatches } of result.plans) {
          expect(plan.commitment_coverage).toBeGreaterThanOrEqual(0);
          expect(plan.commitment_coverage).toBeLessThanOrEqual(1);
          for (const { match } of resourceMatches) {
            expect(match.coverage).toBeGreaterThanOrEqual(0);
            expect(match.coverage).toBeLessThanOrEqual(1);
          }
        }
      }),
    );
  });

  it('sums line items to the plan figures, with savings = before - after and monthly = hourly x 730', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        for (const { plan, lineItems } of computePlans(input).plans) {
          const sum = (pick: (item: (typeof lineItems)[number]) => number) =>
            lineItems.reduce((total, item) => total + pick(item), 0);
          closeTo(
            plan.covered_ondemand_cost_hourly,
            sum((item) => item.covered_ondemand_cost),
          );
          closeTo(
            plan.amortized_cost_hourly,
            sum((item) => item.after_amortized_cost),
          );
          closeTo(
            plan.recurring_cost_hourly,
            sum((item) => item.recurring_cost),
          );
          closeTo(
            plan.fee_hourly,
            sum((item) => item.fee),
          );
          closeTo(
            plan.savings_hourly,
            sum((item) => item.savings),
          );
          closeTo(
            plan.total_savings,
            sum((item) => item.total_savings),
          );
          closeTo(plan.savings_hourly, plan.before_cost_hourly - plan.after_cost_hourly);
          closeTo(
            plan.before_cost_hourly,
            plan.before_ondemand_cost_hourly + plan.before_reserved_cost_hourly,
          );
          closeTo(plan.monthly_savings, plan.savings_hourly * 730);
          closeTo(plan.total_monthly_before_cost, plan.before_cost_hourly * 730);
          for (const item of lineItems) {
            closeTo(item.savings, item.covered_ondemand_cost - item.after_amortized_cost - item.fee);
            closeTo(item.monthly_savings, item.savings * 730);
            expect(item.savings).toBeGreaterThan(0);
            expect(item.fee).toBeGreaterThanOrEqual(0);
          }
        }
      }),
    );
  });

  it('sums resource matches to their line item, and a line item has one match per resource', () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        for (const { lineItems, resourceMatches } of computePlans(input).plans) {
          for (const item of lineItems) {
            const matches = Array.from(resourceMatches)
              .filter((entry) => entry.lineItemId === item.id)
              .map((entry) => entry.match);
            const sum = (pick: (match: (typeof matches)[number]) => number) =>
              matches.reduce((total, match) => total + pick(match), 0);
            expect(matches.length).toBeGreaterThan(0);
            expect(new Set(matches.map((match) => match.resource.id)).size).toBe(matches.length);
            closeTo(
              sum((match) => match.covered_ondemand_cost),
              item.covered_ondemand_cost,
            );
            closeTo(
              sum((match) => match.before_ondemand_cost),
              item.before_ondemand_cost,
            );
            closeTo(
              sum((match) => match.before_reserved_cost),
              item.before_reserved_cost,
            );
            closeTo(
              sum((match) => match.average_savings),
              item.savings,
            );
            for (const match of matches) {
              closeTo(match.before_cost - match.after_cost, match.average_savings);
              closeTo(match.after_uncovered_units, match.before_uncovered_units - match.after_covered_units);
              closeTo(match.monthly_after_cost, match.after_cost * 730);
            }
          }
        }
      }),
    );
  });

  it('gives the same matches for the whole window on request, and sub-ranges that add up to it', () => {
    fc.assert(
      fc.property(inputArbitrary, fc.double({ min: 0, max: 1, noNaN: true }), (input, cut) => {
        // Prepare
        const hours = input.window.hours;
        const split = Math.min(hours, Math.max(0, Math.round(cut * hours)));
        // Every profile: each may stack different layers on a pool (docs/plan-engine.md, Layers).
        for (const { lineItems, resourceMatches } of computePlans(input).plans) {
          // Act
          const whole = resourceMatchesForWindow(input, lineItems, { start: 0, end: hours });
          const head = resourceMatchesForWindow(input, lineItems, { start: 0, end: split });
          const tail = resourceMatchesForWindow(input, lineItems, { start: split, end: hours });

          // Assess
          expect(whole).toEqual(Array.from(resourceMatches));
          for (const { lineItemId, match } of whole) {
            const part = (list: typeof whole) =>
              list.find((entry) => entry.lineItemId === lineItemId && entry.match.id === match.id)?.match;
            const weighted = (pick: (m: typeof match) => number) =>
              (part(head) ? pick(part(head) as typeof match) * split : 0) +
              (part(tail) ? pick(part(tail) as typeof match) * (hours - split) : 0);
            closeTo(
              weighted((m) => m.after_covered_units),
              match.after_covered_units * hours,
            );
            closeTo(
              weighted((m) => m.covered_ondemand_cost),
              match.covered_ondemand_cost * hours,
            );
            closeTo(
              weighted((m) => m.total_units),
              match.total_units * hours,
            );
          }
        }
      }),
    );
  });
});

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
