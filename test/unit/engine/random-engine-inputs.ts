/**
 * Random engine inputs for the property tests (plans.properties, quantities-and-chart.properties):
 * streams, offers of every kind and owned commitments over 1 to 24 hours.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { EngineInput } from '../../../shared/domain/engine/shapes/engine-input';
import type { ExistingCommitment, Offer, UsageStream } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, offer, stream } from './builders';

export const closeTo = (actual: number, expected: number) =>
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

export const inputArbitrary: fc.Arbitrary<EngineInput> = fc.integer({ min: 1, max: 24 }).chain((hours) =>
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

export function everyNumber(value: unknown, visit: (path: string, number: number) => void, path = ''): void {
  if (typeof value === 'number') visit(path, value);
  else if (Array.isArray(value)) {
    value.forEach((entry, index) => {
      everyNumber(entry, visit, `${path}[${index}]`);
    });
  } else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const [key, entry] of Object.entries(value)) everyNumber(entry, visit, `${path}.${key}`);
  }
}
