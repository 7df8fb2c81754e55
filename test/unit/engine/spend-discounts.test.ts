import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rateSubjects, subjectDiscounts } from '../../../shared/domain/engine/groups/spend-pools';
import { streamKinds } from '../../../shared/domain/engine/groups/stream-kinds';
import { instanceFamily } from '../../../shared/domain/engine/shapes/instance-family';
import type { SpendRate, UsageStream } from '../../../shared/domain/engine/shapes/model';
import { stream } from './builders';

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-south-1'];
const TYPES = ['m5.large', 'm5.xlarge', 'c5.large', 'r6i.2xlarge'];
const SYSTEMS = ['Linux', 'Windows'];
const TENANCIES = ['Shared', 'Dedicated'];

/** The oracle: the discount of the first entry, in table order, matching on every field it names. */
function firstMatch(rates: readonly SpendRate[], sample: UsageStream): number {
  const family = instanceFamily(sample.provider, sample.instanceType);
  const rate = rates.find(
    (entry) =>
      (entry.region === undefined || entry.region === sample.region) &&
      (entry.family === undefined || entry.family === family) &&
      (entry.instanceType === undefined || entry.instanceType === sample.instanceType) &&
      (entry.operatingSystem === undefined || entry.operatingSystem === sample.operatingSystem) &&
      (entry.tenancy === undefined || entry.tenancy === sample.tenancy),
  );
  return rate ? rate.discount : Number.NaN;
}

/** An entry naming some of the fields (absent, not undefined: as the catalog writes them). */
const rateArbitrary: fc.Arbitrary<SpendRate> = fc.record(
  {
    region: fc.constantFrom(...REGIONS),
    family: fc.constantFrom('m5', 'c5', 'r6i', 'x2iedn'),
    instanceType: fc.constantFrom(...TYPES),
    operatingSystem: fc.constantFrom(...SYSTEMS),
    tenancy: fc.constantFrom(...TENANCIES),
    discount: fc.double({ min: 0, max: 0.9, noNaN: true }),
  },
  { requiredKeys: ['discount'] },
);

const streamArbitrary = fc
  .record({
    region: fc.constantFrom(...REGIONS),
    instanceType: fc.constantFrom(...TYPES),
    operatingSystem: fc.constantFrom(...SYSTEMS),
    tenancy: fc.constantFrom(...TENANCIES),
  })
  .map((fields) => stream({ ...fields, usage: [1] }));

describe('savings-plan discounts of a rate table', () => {
  it('gives every kind of stream the discount of the first entry matching it, as a scan of the table does', () => {
    fc.assert(
      fc.property(
        fc.array(rateArbitrary, { maxLength: 40 }),
        fc.array(streamArbitrary, { minLength: 1, maxLength: 30 }),
        (rates, streams) => {
          // Act
          const subjects = rateSubjects(streamKinds(streams));
          const covered = subjectDiscounts(subjects, rates);
          const discounts = subjects.samples.map(() => Number.NaN);
          covered.subjects.forEach((subject, k) => {
            discounts[subject] = covered.discounts[k] as number;
          });

          // Assess
          expect(discounts).toEqual(subjects.samples.map((sample) => firstMatch(rates, sample)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
