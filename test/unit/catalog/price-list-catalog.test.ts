import { describe, expect, it } from 'vitest';
import {
  assembleCatalog,
  BUNDLED_CATALOG_DATA,
  type ValidCatalogData,
} from '../../../shared/domain/catalog/catalog';
import { PROVIDER_TERM_HOURS } from '../../../shared/domain/catalog/catalog-terms';
import { fixturePriceLists } from '../../support/price-list-fixtures';

const lists = await fixturePriceLists();
const bundled = BUNDLED_CATALOG_DATA as ValidCatalogData;
const catalog = assembleCatalog(bundled, lists);
const bundledOnly = assembleCatalog(bundled);
const effective = (offer: { upfront: number; recurring: number; termHours: number }) =>
  offer.upfront / offer.termHours + offer.recurring;

describe('a catalog from price lists', () => {
  it('prices the types the bundled table lacks, at the listed rates', () => {
    const key = {
      provider: 'aws',
      region: 'us-east-1',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;
    expect(bundledOnly.ondemandPrice({ ...key, instanceType: 't2.micro' })).toBeUndefined();
    expect(catalog.ondemandPrice({ ...key, instanceType: 't2.micro' })).toBe(0.0116);
    expect(catalog.ondemandPrice({ ...key, instanceType: 'm4.large' })).toBe(0.1);
    expect(catalog.ondemandPrice({ ...key, region: 'eu-west-2', instanceType: 'r4.large' })).toBe(0.156);
    expect(catalog.pricedInstance({ ...key, instanceType: 'm4.large' })).toMatchObject({
      family: 'm4',
      units: 4,
      illustrative: false,
      source: expect.stringContaining('AWS Price List (AmazonEC2 20241118210538'),
    });
  });

  it('prices Multi-AZ apart from Single-AZ', () => {
    const key = {
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'db.m5.large',
      operatingSystem: 'MySQL',
      tenancy: 'Shared',
    } as const;
    expect(catalog.ondemandPrice(key)).toBe(0.171);
    expect(catalog.ondemandPrice({ ...key, deploymentOption: 'Multi-AZ' })).toBe(0.342);
  });

  it('replaces the bundled figures of a region a list covers, and keeps the others', () => {
    const offers = catalog.offers('aws');
    const inRegion = (region: string) =>
      offers.filter((offer) => offer.scope.kind !== 'spend' && offer.scope.region === region);
    expect(
      inRegion('us-east-1').every((offer) => !offer.illustrative || offer.contractType.startsWith('leased')),
    ).toBe(true);
    expect(inRegion('us-west-2').length).toBeGreaterThan(0);
    expect(
      inRegion('us-west-2').every((offer) => offer.source === bundledOnly.offerById(offer.id)?.source),
    ).toBe(true);
  });

  it('makes one size-flexible offer per family for EC2 Linux, priced per normalization unit as listed', () => {
    const m5 = catalog
      .offers('aws')
      .find(
        (offer) =>
          offer.contractType === 'standard_ris' &&
          offer.term === 'one_year' &&
          offer.paymentOption === 'No Upfront' &&
          offer.scope.kind === 'family' &&
          offer.scope.region === 'us-east-1' &&
          offer.scope.family === 'm5',
      );
    // m5.large (4 units) at 0.06 per hour in the list.
    expect(m5?.recurring).toBeCloseTo(0.06 / 4, 12);
    expect(m5?.displayName).toBe(
      'EC2 Standard Reserved Instance, m5 (size-flexible), Linux/UNIX, us-east-1, 1 year, No Upfront',
    );
  });

  it('offers Windows, RHEL and Oracle reservations per instance at the listed upfront and hourly price', () => {
    const find = (os: string, instanceType: string) =>
      catalog
        .offers('aws')
        .find(
          (offer) =>
            offer.scope.kind === 'instance' &&
            offer.scope.region === 'us-east-1' &&
            offer.scope.instanceType === instanceType &&
            offer.scope.operatingSystem === os &&
            offer.term === 'three_year' &&
            offer.paymentOption === 'All Upfront' &&
            !offer.contractType.startsWith('leased'),
        );
    const windows = find('Windows', 'x2iedn.32xlarge');
    expect(windows?.recurring).toBe(0);
    const listed = lists
      .find((list) => list.provider === 'aws' && list.region === 'us-east-1')
      ?.reservations.find(
        (r) =>
          r.instanceType === 'x2iedn.32xlarge' &&
          r.operatingSystem === 'Windows' &&
          r.contractType === windows?.contractType &&
          r.term === 'three_year' &&
          r.paymentOption === 'All Upfront',
      );
    expect(windows && effective(windows)).toBeCloseTo(
      (listed?.upfront ?? Number.NaN) / PROVIDER_TERM_HOURS.three_year,
      12,
    );
    expect(find('RHEL', 'x2iedn.32xlarge')?.productDescription).toBe('Red Hat Enterprise Linux');
    expect(find('Oracle Standard Two LI', 'db.m5.large')?.contractType).toBe('db_ris');
  });

  it('turns savings plan rates into discounts off the listed on-demand price', () => {
    const compute = catalog
      .offers('aws')
      .find(
        (offer) =>
          offer.contractType === 'compute_plans' &&
          offer.term === 'one_year' &&
          offer.paymentOption === 'No Upfront',
      );
    if (compute?.scope.kind !== 'spend') throw new Error('no compute savings plan');
    const m5 = compute.scope.rates.find(
      (rate) => rate.region === 'us-east-1' && rate.family === 'm5' && rate.operatingSystem === 'Linux',
    );
    // 0.06912 / 0.096 for m5.large and m5.xlarge alike.
    expect(m5?.discount).toBeCloseTo(1 - 0.72, 9);
    // The bundled rows of regions no list covers stay in the same offer.
    expect(compute.scope.rates.some((rate) => rate.region === 'us-west-2')).toBe(true);
    const azure = catalog
      .offers('azure')
      .find(
        (offer) =>
          offer.contractType === 'compute_plans' &&
          offer.term === 'three_year' &&
          offer.paymentOption === 'No Upfront',
      );
    if (azure?.scope.kind !== 'spend') throw new Error('no azure savings plan');
    expect(
      azure.scope.rates.find((rate) => rate.region === 'eastus' && rate.family === 'Dsv5')?.discount,
    ).toBeCloseTo(1 - 0.0978 / 0.192, 9);
  });

  it('offers Azure reservations per flexibility group, priced per ratio unit', () => {
    const dsv5 = catalog
      .offers('azure')
      .find(
        (offer) =>
          offer.contractType === 'vm' &&
          offer.scope.kind === 'family' &&
          offer.scope.region === 'eastus' &&
          offer.scope.family === 'Dsv5' &&
          offer.term === 'one_year' &&
          offer.paymentOption === 'All Upfront',
      );
    // Standard_D2s_v5 (ratio 2) at 505 and Standard_D4s_v5 (ratio 4) at 1010 for the year: 252.5 per unit.
    expect(dsv5?.upfront).toBe(252.5);
    expect(dsv5?.illustrative).toBe(false);
  });

  it('gives every offer a unique id and prices every instance once', () => {
    const ids = catalog.offers().map((offer) => offer.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
