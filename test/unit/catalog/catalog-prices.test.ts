import { describe, expect, it } from 'vitest';
import { catalog, effectiveRate, find } from '../../support/catalog-offers';

describe('on-demand prices', () => {
  it('prices every size of a family linearly in its units', () => {
    // Prepare
    const key = {
      provider: 'aws',
      region: 'us-east-1',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;

    // Act
    const large = catalog.ondemandPrice({ ...key, instanceType: 'm5.large' });
    const quadruple = catalog.ondemandPrice({ ...key, instanceType: 'm5.4xlarge' });

    // Assess
    expect(large).toBe(0.096);
    expect(quadruple).toBeCloseTo(0.768, 12);
  });

  it('prices Azure sizes per vCPU and GCP machine types per vCPU', () => {
    const azure = {
      provider: 'azure',
      region: 'eastus',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;
    const gcp = {
      provider: 'gcp',
      region: 'us-central1',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;
    expect(catalog.ondemandPrice({ ...azure, instanceType: 'Standard_D8s_v5' })).toBeCloseTo(0.384, 12);
    expect(catalog.ondemandPrice({ ...gcp, instanceType: 'n2-standard-8' })).toBeCloseTo(0.388472, 12);
  });

  it('answers undefined for what it does not price', () => {
    const key = {
      provider: 'aws',
      region: 'us-east-1',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;
    expect(catalog.ondemandPrice({ ...key, instanceType: 'm5.metal' })).toBeUndefined();
    expect(catalog.ondemandPrice({ ...key, instanceType: 'm5.large', tenancy: 'Dedicated' })).toBeUndefined();
    expect(catalog.ondemandPrice({ ...key, instanceType: 'm5.large', region: 'ap-south-2' })).toBeUndefined();
  });
});

describe('every commitment discounts', () => {
  it('costs less per unit-hour than on-demand for every instance a reservation covers', () => {
    // Prepare
    const reservations = find((offer) => offer.scope.kind !== 'spend');
    expect(reservations.length).toBeGreaterThan(0);

    // Act
    const notDiscounting = reservations.flatMap((offer) => {
      const { scope } = offer;
      const covered = catalog
        .pricedInstances(offer.provider)
        .filter((instance) =>
          scope.kind === 'family'
            ? instance.family === scope.family
            : scope.kind === 'instance' && instance.instanceType === scope.instanceType,
        )
        .filter(
          (instance) =>
            scope.kind !== 'spend' &&
            instance.region === scope.region &&
            instance.operatingSystem === scope.operatingSystem &&
            instance.tenancy === scope.tenancy,
        );
      if (covered.length === 0) return [`${offer.providerOfferingId} covers nothing priced`];
      return covered
        .filter((instance) => {
          const perUnit =
            scope.kind === 'family' ? instance.ondemandPrice / instance.units : instance.ondemandPrice;
          return !(effectiveRate(offer) < perUnit);
        })
        .map((instance) => `${offer.providerOfferingId} vs ${instance.instanceType}`);
    });

    // Assess
    expect(notDiscounting).toEqual([]);
  });

  it('gives every savings-plan rate a real discount on instances the catalog prices', () => {
    // Prepare
    const plans = find((offer) => offer.scope.kind === 'spend');
    expect(plans.length).toBeGreaterThan(0);

    // Act
    const problems = plans.flatMap((offer) =>
      offer.scope.kind !== 'spend'
        ? []
        : offer.scope.rates
            .filter(
              (rate) =>
                !(rate.discount > 0 && rate.discount < 1) ||
                !catalog.pricedInstances(offer.provider).some(
                  (instance) =>
                    instance.region === rate.region &&
                    instance.family === rate.family &&
                    // An absent field matches any value (the Azure plan covers every OS).
                    (rate.operatingSystem ?? instance.operatingSystem) === instance.operatingSystem &&
                    (rate.tenancy ?? instance.tenancy) === instance.tenancy,
                ),
            )
            .map((rate) => `${offer.providerOfferingId} ${JSON.stringify(rate)}`),
    );

    // Assess
    expect(problems).toEqual([]);
  });

  it('charges a savings plan one dollar per unit-hour whatever the payment option', () => {
    const plans = find((offer) => offer.scope.kind === 'spend');
    for (const offer of plans) expect(effectiveRate(offer)).toBeCloseTo(1, 12);
  });
});

describe('payment options', () => {
  it('splits the effective rate: All Upfront at purchase, No Upfront hourly, Partial half and half', () => {
    // Prepare
    const offers = find(
      (offer) =>
        offer.contractType === 'standard_ris' &&
        offer.provider === 'aws' &&
        offer.term === 'three_year' &&
        offer.scope.kind === 'family' &&
        offer.scope.family === 'm5' &&
        offer.scope.region === 'us-east-1',
    );
    const byPayment = new Map(offers.map((offer) => [offer.paymentOption, offer]));

    // Act
    const allUpfront = byPayment.get('All Upfront');
    const noUpfront = byPayment.get('No Upfront');
    const partial = byPayment.get('Partial Upfront');

    // Assess
    expect(allUpfront?.recurring).toBe(0);
    expect(allUpfront?.upfront).toBeCloseTo(26280 * (0.035712 / 4), 9);
    expect(noUpfront?.upfront).toBe(0);
    expect(noUpfront?.recurring).toBeCloseTo(0.040992 / 4, 12);
    expect(partial?.upfront).toBeCloseTo((26280 * (0.038016 / 4)) / 2, 9);
    expect(partial?.recurring).toBeCloseTo(0.038016 / 8, 12);
  });

  it('bills Azure reservations the same whether paid upfront or monthly', () => {
    const offers = find(
      (offer) =>
        offer.contractType === 'vm' &&
        offer.term === 'one_year' &&
        offer.scope.kind === 'family' &&
        offer.scope.family === 'Dsv5' &&
        offer.scope.region === 'eastus',
    );
    expect(offers.map((offer) => offer.paymentOption).sort()).toEqual(['All Upfront', 'No Upfront']);
    const [first, second] = offers.map(effectiveRate);
    expect(first).toBeCloseTo(second ?? Number.NaN, 12);
  });
});
