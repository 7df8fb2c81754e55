import { describe, expect, it } from 'vitest';
import { find } from '../../support/catalog-offers';

describe('guaranteed offers', () => {
  it.each([
    ['thirty_day_gris', 720],
    ['one_year_gris', 8760],
  ] as const)('%s locks in for %d hours on the leased contract types', (term, lockinHours) => {
    // Act
    const leased = find((offer) => offer.term === term);

    // Assess
    expect(new Set(leased.map((offer) => `${offer.provider}/${offer.contractType}`))).toEqual(
      new Set([
        'aws/leased_ris',
        'aws/leased_compute_plans',
        'azure/leased_vm',
        'azure/leased_compute_plans',
      ]),
    );
    for (const offer of leased) {
      expect(offer.lockinHours).toBe(lockinHours);
      expect(offer.feeRate).toBeGreaterThan(0);
      expect(offer.illustrative).toBe(true);
      expect(offer.leasedDisplayName).not.toBe('');
    }
  });

  it('leases the provider 3-year No Upfront commitment at its price', () => {
    // Prepare
    const leased = find((offer) => offer.term === 'thirty_day_gris' && offer.contractType === 'leased_ris');

    // Act
    const pairs = leased.map((offer) => ({
      offer,
      underlying: find(
        (candidate) =>
          candidate.contractType === 'standard_ris' &&
          candidate.term === 'three_year' &&
          candidate.paymentOption === 'No Upfront' &&
          JSON.stringify(candidate.scope) === JSON.stringify(offer.scope),
      ),
    }));

    // Assess
    expect(pairs.length).toBeGreaterThan(0);
    for (const { offer, underlying } of pairs) {
      expect(underlying).toHaveLength(1);
      expect(offer.upfront).toBe(0);
      expect(offer.recurring).toBe(underlying[0]?.recurring);
      expect(offer.termHours).toBe(26280);
      expect(offer.providerOfferingId).toBe(underlying[0]?.providerOfferingId);
      expect(offer.id).not.toBe(underlying[0]?.id);
    }
  });

  it('charges no fee on plain provider offers', () => {
    const plain = find((offer) => offer.lockinHours === offer.termHours);
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.every((offer) => offer.feeRate === 0 && !offer.contractType.startsWith('leased_'))).toBe(
      true,
    );
  });
});
