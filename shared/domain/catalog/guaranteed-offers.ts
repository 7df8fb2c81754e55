import { deterministicUuid } from '../deterministic-id';
import type { Offer } from '../engine/shapes/model';
import type { GuaranteedOfferFile } from './catalog-schema';
import { CatalogDataError } from './catalog-terms';

/**
 * Guaranteed (leased) offers: the service holds the provider's commitment (the lease's underlying
 * offer) and leases it to the org with a short lock-in. The org pays the underlying offer's price
 * for as long as it keeps the lease, may give it back after `lockinHours`, and pays `feeRate` of
 * the gross savings as the service's premium. T stays the underlying term: the lease can run
 * that long.
 */
export function guaranteedOffers(file: GuaranteedOfferFile, providerOffers: readonly Offer[]): Offer[] {
  const offers: Offer[] = [];
  for (const lease of file.leases) {
    const underlying = providerOffers.filter(
      (offer) =>
        offer.provider === lease.provider &&
        offer.contractType === lease.contractType &&
        offer.term === lease.term &&
        offer.paymentOption === lease.paymentOption,
    );
    if (underlying.length === 0) {
      const { provider, contractType, term, paymentOption } = lease;
      throw new CatalogDataError(`no ${provider} ${contractType} ${term} ${paymentOption} offer to lease`);
    }
    for (const terms of file.terms) {
      const feeSource = file.sources[terms.source];
      if (!feeSource) throw new CatalogDataError(`unknown source ${terms.source}`);
      for (const base of underlying) {
        // Listed field by field: every offer object then has the same shape, which keeps the
        // engine's hot loops monomorphic.
        offers.push({
          id: deterministicUuid('offer', 'leased', terms.term, base.id),
          provider: base.provider,
          contractType: lease.leasedContractType,
          term: terms.term,
          paymentOption: base.paymentOption,
          scope: base.scope,
          termHours: base.termHours,
          lockinHours: terms.lockinHours,
          upfront: base.upfront,
          recurring: base.recurring,
          feeRate: terms.feeRate,
          providerOfferingId: base.providerOfferingId,
          displayName: base.displayName,
          leasedDisplayName: `${terms.label} guaranteed ${base.displayName}`,
          productDescription: base.productDescription,
          offeringClass: base.offeringClass,
          planType: base.planType,
          source: `${base.source}; fee: ${feeSource.description}`,
          illustrative: base.illustrative || feeSource.illustrative,
        });
      }
    }
  }
  return offers;
}
