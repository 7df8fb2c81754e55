import { describe, expect, it } from 'vitest';
import type { Offer } from '../../../shared/domain/engine/shapes/model';
import { ALL_PAYMENTS, catalog, find } from '../../support/catalog-offers';

describe('required offers are present', () => {
  function has(predicate: (offer: Offer) => boolean): boolean {
    return catalog.offers().some(predicate);
  }

  it.each(
    ['m5', 'm6i', 'c5', 'r5', 't3', 'x2iedn'].flatMap((family) =>
      ['us-east-1', 'us-west-2', 'eu-west-1'].flatMap((region) =>
        (['standard_ris', 'convertible_ris'] as const).flatMap((contractType) =>
          (['one_year', 'three_year'] as const).map((term) => ({ family, region, contractType, term })),
        ),
      ),
    ),
  )(
    'AWS $contractType $family $region $term in every payment option, size-flexible',
    ({ family, region, contractType, term }) => {
      const offers = find(
        (offer) =>
          offer.contractType === contractType &&
          offer.term === term &&
          offer.scope.kind === 'family' &&
          offer.scope.family === family &&
          offer.scope.region === region &&
          offer.scope.operatingSystem === 'Linux' &&
          offer.scope.tenancy === 'Shared',
      );
      expect(offers.map((offer) => offer.paymentOption).sort()).toEqual([...ALL_PAYMENTS].sort());
      expect(offers.every((offer) => offer.termHours === (term === 'one_year' ? 8760 : 26280))).toBe(true);
    },
  );

  it('AWS Windows reservations of exact sizes', () => {
    expect(
      has(
        (offer) =>
          offer.contractType === 'standard_ris' &&
          offer.scope.kind === 'instance' &&
          offer.scope.instanceType === 'm5.xlarge' &&
          offer.scope.operatingSystem === 'Windows',
      ),
    ).toBe(true);
  });

  it.each(['compute_plans', 'instance_plans'] as const)(
    'AWS %s in both terms and every payment option',
    (type) => {
      const offers = find((offer) => offer.provider === 'aws' && offer.contractType === type);
      for (const term of ['one_year', 'three_year']) {
        const payments = new Set(
          offers.filter((offer) => offer.term === term).map((offer) => offer.paymentOption),
        );
        expect([...payments].sort()).toEqual([...ALL_PAYMENTS].sort());
      }
      expect(offers.every((offer) => offer.scope.kind === 'spend')).toBe(true);
    },
  );

  it('AWS EC2 Instance Savings Plans per region and family', () => {
    const offers = find((offer) => offer.contractType === 'instance_plans');
    for (const offer of offers) {
      const scope = offer.scope;
      if (scope.kind !== 'spend') throw new Error('instance plans are spend commitments');
      expect(new Set(scope.rates.map((rate) => `${rate.region}/${rate.family}`)).size).toBe(1);
    }
  });

  it.each(['db.m5', 'db.r5'])('RDS MySQL reservations of %s', (family) => {
    expect(
      has(
        (offer) =>
          offer.contractType === 'db_ris' &&
          offer.scope.kind === 'family' &&
          offer.scope.family === family &&
          offer.scope.operatingSystem === 'MySQL',
      ),
    ).toBe(true);
  });

  it.each(
    ['Dsv5', 'Esv5', 'FSv2'].flatMap((family) =>
      ['eastus', 'westeurope'].map((region) => ({ family, region })),
    ),
  )('Azure VM reservations of $family in $region for 1 and 3 years', ({ family, region }) => {
    const terms = find(
      (offer) =>
        offer.contractType === 'vm' &&
        offer.scope.kind === 'family' &&
        offer.scope.family === family &&
        offer.scope.region === region,
    ).map((offer) => offer.term);
    expect(new Set(terms)).toEqual(new Set(['one_year', 'three_year']));
  });

  it('the Azure savings plan for compute', () => {
    expect(has((offer) => offer.provider === 'azure' && offer.contractType === 'compute_plans')).toBe(true);
  });

  it.each(
    ['n2-standard-2', 'n2-standard-4', 'n2-standard-8', 'n2-standard-16', 'e2-standard-2', 'e2-standard-4']
      .concat(['e2-standard-8', 'c3-standard-4', 'c3-standard-8'])
      .flatMap((instanceType) => ['us-central1', 'europe-west1'].map((region) => ({ instanceType, region }))),
  )('GCP committed use discounts for $instanceType in $region, monthly', ({ instanceType, region }) => {
    const offers = find(
      (offer) =>
        offer.provider === 'gcp' &&
        offer.scope.kind === 'instance' &&
        offer.scope.instanceType === instanceType &&
        offer.scope.region === region,
    );
    expect(new Set(offers.map((offer) => offer.term))).toEqual(new Set(['one_year', 'three_year']));
    expect(offers.every((offer) => offer.paymentOption === 'No Upfront' && offer.upfront === 0)).toBe(true);
  });
});
