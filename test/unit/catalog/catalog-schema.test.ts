import { describe, expect, it } from 'vitest';
import { BUNDLED_CATALOG_DATA } from '../../../shared/domain/catalog/catalog';
import {
  guaranteedOfferFileSchema,
  reservationFileSchema,
  savingsPlanFileSchema,
} from '../../../shared/domain/catalog/catalog-schema';
import { CatalogDataError } from '../../../shared/domain/catalog/catalog-terms';
import { buildCatalog } from '../../../shared/domain/catalog/catalog-validation';
import type { CatalogData } from '../../../shared/domain/catalog/packed-files';

const EC2_FILE = 'aws-ec2-reserved-instances.json';

function validReservationFile() {
  return {
    provider: 'aws',
    service: 'AmazonEC2',
    sources: { list: { illustrative: true, description: 'test prices' } },
    productDescriptions: { Linux: 'Linux/UNIX' },
    products: { standard_ris: { name: 'EC2 Standard Reserved Instance', offeringClass: 'standard' } },
    families: [
      {
        family: 'm5',
        priceReference: 'm5.large',
        instanceTypes: ['m5.large', 'm5.xlarge'],
        prices: [
          {
            region: 'us-east-1',
            operatingSystem: 'Linux',
            tenancy: 'Shared',
            source: 'list',
            ondemand: 0.096,
            reserved: { standard_ris: { one_year: { 'No Upfront': 0.06 } } },
            reservedScope: { kind: 'family' },
          },
        ],
      },
    ],
  };
}

/** The bundled data with one reservation file replaced. */
function withReservationFile(file: unknown): CatalogData {
  return {
    ...BUNDLED_CATALOG_DATA,
    reservations: { ...BUNDLED_CATALOG_DATA.reservations, [EC2_FILE]: file },
  };
}

function issuesOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return (result.error?.issues ?? []).map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }));
}

describe('reservation file schema', () => {
  it('accepts a well-formed file', () => {
    expect(reservationFileSchema.safeParse(validReservationFile()).success).toBe(true);
  });

  it('rejects a negative price and names the field', () => {
    // Prepare
    const file = validReservationFile();
    const [family] = file.families;
    if (family?.prices[0]) family.prices[0].ondemand = -0.096;

    // Act
    const result = reservationFileSchema.safeParse(file);

    // Assess
    expect(result.success).toBe(false);
    expect(issuesOf(result)).toEqual([
      { path: 'families.0.prices.0.ondemand', message: 'Too small: expected number to be >0' },
    ]);
  });

  it('rejects unknown fields, terms and payment options', () => {
    // Prepare
    const file = {
      ...validReservationFile(),
      discount: 0.5,
    };
    const prices = file.families[0]?.prices[0];
    if (prices) {
      (prices.reserved as Record<string, unknown>).standard_ris = { two_year: { 'No Upfront': 0.05 } };
    }

    // Act
    const paths = issuesOf(reservationFileSchema.safeParse(file)).map((issue) => issue.path);

    // Assess
    expect(paths).toEqual(expect.arrayContaining(['', 'families.0.prices.0.reserved.standard_ris']));
  });

  it('rejects an instance type of another family and an unknown source', () => {
    // Prepare
    const file = validReservationFile();
    const family = file.families[0];
    if (family?.prices[0]) {
      family.instanceTypes.push('c5.large');
      family.prices[0].source = 'nowhere';
    }

    // Act
    const issues = issuesOf(reservationFileSchema.safeParse(file));

    // Assess
    expect(issues).toEqual([
      { path: 'families.0.instanceTypes.2', message: 'c5.large is not a aws instance type of family m5' },
      { path: 'families.0.prices.0.source', message: 'unknown source nowhere' },
    ]);
  });

  it('requires reserved prices and their scope together', () => {
    const file = validReservationFile();
    const prices = file.families[0]?.prices[0] as Record<string, unknown>;
    delete prices.reservedScope;
    expect(issuesOf(reservationFileSchema.safeParse(file))).toEqual([
      { path: 'families.0.prices.0.reservedScope', message: 'reserved and reservedScope are given together' },
    ]);
  });
});

describe('savings plan and guaranteed offer schemas', () => {
  it('rejects a discount of 100% or more', () => {
    const result = savingsPlanFileSchema.safeParse({
      provider: 'aws',
      sources: { s: { illustrative: true, description: 'test' } },
      plans: [{ planType: 'P', contractType: 'compute_plans', displayName: 'P', perRegionFamily: false }],
      rates: [
        {
          planType: 'P',
          region: 'us-east-1',
          family: 'm5',
          operatingSystem: 'Linux',
          tenancy: 'Shared',
          source: 's',
          discounts: { one_year: { 'No Upfront': 1 } },
        },
      ],
    });
    expect(issuesOf(result)).toEqual([
      { path: 'rates.0.discounts.one_year.No Upfront', message: 'Too big: expected number to be <1' },
    ]);
  });

  it('rejects a lock-in as long as the leased term', () => {
    const result = guaranteedOfferFileSchema.safeParse({
      sources: { fee: { illustrative: true, description: 'test' } },
      terms: [{ term: 'one_year_gris', label: '1-year', lockinHours: 8760, feeRate: 0.1, source: 'fee' }],
      leases: [
        {
          provider: 'aws',
          contractType: 'standard_ris',
          term: 'one_year',
          paymentOption: 'No Upfront',
          leasedContractType: 'leased_ris',
        },
      ],
    });
    expect(issuesOf(result)).toEqual([
      { path: 'terms.0.lockinHours', message: 'lockinHours is shorter than every leased term' },
    ]);
  });
});

describe('building a catalog from bad data', () => {
  it('fails with an error naming the file and the field', () => {
    // Prepare
    const file = structuredClone(BUNDLED_CATALOG_DATA.reservations[EC2_FILE]) as ReturnType<
      typeof validReservationFile
    >;
    const prices = file.families[0]?.prices[0];
    if (prices) prices.ondemand = Number.NaN;

    // Act
    const build = () => buildCatalog(withReservationFile(file));

    // Assess
    expect(build).toThrow(CatalogDataError);
    expect(build).toThrow(
      /catalog data aws-ec2-reserved-instances\.json is invalid:[\s\S]*families\[0\]\.prices\[0\]\.ondemand/,
    );
  });

  it('fails when a savings plan rate matches no priced instance', () => {
    // Prepare
    const file = structuredClone(BUNDLED_CATALOG_DATA.reservations[EC2_FILE]) as ReturnType<
      typeof validReservationFile
    >;
    file.families = file.families.filter((family) => family.family !== 't3');

    // Act
    const build = () => buildCatalog(withReservationFile(file));

    // Assess
    expect(build).toThrow(
      /aws-savings-plans\.json: savings plan rate ComputeSavingsPlans us-east-1 t3 Linux Shared/,
    );
  });

  it('fails when a guaranteed offer has nothing to lease', () => {
    // Prepare
    const data: CatalogData = {
      ...BUNDLED_CATALOG_DATA,
      savingsPlans: { 'aws-savings-plans.json': BUNDLED_CATALOG_DATA.savingsPlans['aws-savings-plans.json'] },
    };

    // Act
    const build = () => buildCatalog(data);

    // Assess
    expect(build).toThrow('no azure compute_plans three_year No Upfront offer to lease');
  });
});
