import type { RegionPriceList } from '../../shared/domain/catalog/price-list';

/**
 * Price lists of the shape the readers produce (docs/catalog.md, Price lists), for benchmarks of
 * a catalog wider than the bundled one: `regions` AWS regions x `families` EC2 families, each
 * family in 4 sizes (large to 4xlarge) for Linux and Windows, every reservation (Standard and
 * Convertible, 1 and 3 years, 3 payment options) and every Compute and EC2 Instance Savings Plans
 * rate. Prices follow the shape of real ones (per-unit price by family, a region factor, the
 * Windows licence per vCPU on top); they are not real prices.
 */

const REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-central-1',
  'eu-north-1',
  'eu-south-1',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  'sa-east-1',
  'me-south-1',
  'af-south-1',
];

const FAMILIES = [
  'm5',
  'm5a',
  'm6i',
  'm6a',
  'm7i',
  'c5',
  'c5a',
  'c6i',
  'c6a',
  'c7i',
  'r5',
  'r5a',
  'r6i',
  'r6a',
  'r7i',
  't3',
  't3a',
  'm4',
  'c4',
  'r4',
  'm6g',
  'c6g',
  'r6g',
  'm7g',
  'c7g',
  'r7g',
  'i3',
  'i4i',
  'd3',
  'm5n',
  'r5n',
  'c5n',
  'm5d',
  'r5d',
  'c5d',
  'm6id',
  'r6id',
  'c6id',
  'z1d',
  'x2idn',
];

const SIZES = [
  ['large', 4],
  ['xlarge', 8],
  ['2xlarge', 16],
  ['4xlarge', 32],
] as const;

const RATIOS = {
  standard_ris: { one_year: [0.625, 0.583, 0.571], three_year: [0.427, 0.396, 0.372] },
  convertible_ris: { one_year: [0.729, 0.682, 0.669], three_year: [0.5, 0.471, 0.45] },
} as const;
const PAYMENTS = ['No Upfront', 'Partial Upfront', 'All Upfront'] as const;
const HOURS = { one_year: 8760, three_year: 26280 } as const;

export const MAX_SYNTHETIC_REGIONS = REGIONS.length;
export const MAX_SYNTHETIC_FAMILIES = FAMILIES.length;

export function syntheticRegions(count: number): string[] {
  return REGIONS.slice(0, count);
}

export function syntheticFamilies(count: number): string[] {
  return FAMILIES.slice(0, count);
}

export function syntheticPriceLists(regions: number, families: number): RegionPriceList[] {
  return syntheticRegions(regions).map((region, r) => {
    const regionFactor = 1 + (r % 7) * 0.03;
    const instances: RegionPriceList['instances'][number][] = [];
    const reservations: RegionPriceList['reservations'][number][] = [];
    const spendRates: RegionPriceList['spendRates'][number][] = [];
    syntheticFamilies(families).forEach((family, f) => {
      const perUnit = (0.02 + (f % 10) * 0.004) * regionFactor;
      for (const [size, units] of SIZES) {
        const instanceType = `${family}.${size}`;
        const linux = Number((perUnit * units).toFixed(4));
        // Windows: the licence of 0.046 per vCPU-hour (2 vCPUs per 8 units... a large has 2).
        const licence = 0.046 * (units / 2);
        for (const [operatingSystem, ondemand] of [
          ['Linux', linux],
          ['Windows', Number((linux + licence).toFixed(4))],
        ] as const) {
          instances.push({
            service: 'AmazonEC2',
            instanceType,
            operatingSystem,
            tenancy: 'Shared',
            sizeFactor: units,
            ondemand,
          });
          for (const [contractType, byTerm] of Object.entries(RATIOS) as [
            keyof typeof RATIOS,
            (typeof RATIOS)[keyof typeof RATIOS],
          ][]) {
            for (const term of ['one_year', 'three_year'] as const) {
              PAYMENTS.forEach((paymentOption, p) => {
                const effective = linux * (byTerm[term][p] as number) + (ondemand - linux);
                const upfront =
                  paymentOption === 'All Upfront'
                    ? Math.round(effective * HOURS[term])
                    : paymentOption === 'Partial Upfront'
                      ? Math.round((effective * HOURS[term]) / 2)
                      : 0;
                const recurring =
                  paymentOption === 'All Upfront'
                    ? 0
                    : Math.max(0, Number((effective - upfront / HOURS[term]).toFixed(6)));
                reservations.push({
                  service: 'AmazonEC2',
                  contractType,
                  term,
                  paymentOption,
                  instanceType,
                  operatingSystem,
                  tenancy: 'Shared',
                  upfront,
                  recurring,
                });
                const planType =
                  contractType === 'standard_ris' ? 'EC2InstanceSavingsPlans' : 'ComputeSavingsPlans';
                spendRates.push({
                  planType,
                  term,
                  paymentOption,
                  instanceType,
                  operatingSystem,
                  tenancy: 'Shared',
                  rate: Number((effective * 1.03).toFixed(6)),
                });
              });
            }
          }
        }
      }
    });
    return {
      provider: 'aws',
      region,
      source: 'synthetic price list (benchmark)',
      published: { AmazonEC2: '2025-01-01T00:00:00Z' },
      instances,
      reservations,
      spendRates,
    };
  });
}
