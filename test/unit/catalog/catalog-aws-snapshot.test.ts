import { describe, expect, it } from 'vitest';
import type { OfferContractType, OfferTerm, PaymentOption } from '../../../shared/domain/engine/shapes/model';
import snapshot from '../../fixtures/aws-ec2-x2iedn.32xlarge-prices.excerpt.json' with { type: 'json' };
import { catalog, effectiveRate, find } from '../../support/catalog-offers';

describe('x2iedn prices match the AWS snapshot', () => {
  const terms = { yrTerm1: 'one_year', yrTerm3: 'three_year' } as const;
  const classes = { Standard: 'standard_ris', Convertible: 'convertible_ris' } as const;
  const payments = {
    noUpfront: 'No Upfront',
    partialUpfront: 'Partial Upfront',
    allUpfront: 'All Upfront',
  } as const;
  const systems = { linux: 'Linux', mswin: 'Windows' } as const;
  const units = snapshot.normalization_size_factor;

  const cases = Object.entries(snapshot.pricing).flatMap(([region, bySystem]) =>
    Object.entries(bySystem).flatMap(([system, prices]) =>
      Object.entries(prices.reserved).map(([key, rate]) => {
        const match = /^(yrTerm[13])(Standard|Convertible)\.(\w+)$/.exec(key);
        if (!match) throw new Error(`unexpected snapshot key ${key}`);
        return {
          region,
          operatingSystem: systems[system as keyof typeof systems],
          term: terms[match[1] as keyof typeof terms] as OfferTerm,
          contractType: classes[match[2] as keyof typeof classes] as OfferContractType,
          paymentOption: payments[match[3] as keyof typeof payments] as PaymentOption,
          rate: Number(rate),
        };
      }),
    ),
  );

  it('covers every region, OS, term, class and payment of the excerpt', () => {
    expect(cases).toHaveLength(3 * 2 * 12);
  });

  it.each(
    Object.entries(snapshot.pricing).flatMap(([region, bySystem]) =>
      Object.entries(bySystem).map(([system, prices]) => ({
        region,
        operatingSystem: systems[system as keyof typeof systems],
        ondemand: Number(prices.ondemand),
      })),
    ),
  )(
    'prices x2iedn.32xlarge $operatingSystem on demand in $region as the snapshot',
    ({ region, operatingSystem, ondemand }) => {
      const price = catalog.ondemandPrice({
        provider: 'aws',
        region,
        instanceType: 'x2iedn.32xlarge',
        operatingSystem,
        tenancy: 'Shared',
      });
      expect(price).toBe(ondemand);
    },
  );

  it.each(cases)(
    '$region $operatingSystem $contractType $term $paymentOption costs the snapshot rate',
    (entry) => {
      // Prepare
      const isFamily = entry.operatingSystem === 'Linux';

      // Act
      const [offer, ...others] = find(
        (offer) =>
          offer.provider === 'aws' &&
          offer.contractType === entry.contractType &&
          offer.term === entry.term &&
          offer.paymentOption === entry.paymentOption &&
          offer.scope.kind === (isFamily ? 'family' : 'instance') &&
          offer.scope.region === entry.region &&
          offer.scope.operatingSystem === entry.operatingSystem &&
          (offer.scope.kind === 'family'
            ? offer.scope.family === 'x2iedn'
            : offer.scope.kind === 'instance' && offer.scope.instanceType === 'x2iedn.32xlarge'),
      );

      // Assess
      expect(others).toEqual([]);
      expect(offer?.illustrative).toBe(false);
      const perInstance = (offer ? effectiveRate(offer) : Number.NaN) * (isFamily ? units : 1);
      expect(perInstance).toBeCloseTo(entry.rate, 9);
    },
  );
});
