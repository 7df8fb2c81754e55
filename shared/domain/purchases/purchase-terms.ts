import type { Provider } from '../engine';
import type { CandidateSize, OfferTerms, OrderCatalog, PurchaseCatalog } from './purchase-catalog';

/**
 * The part of a catalog that prices and sizes the purchases of some offers (docs/purchases.md,
 * Applying): those offers' terms and the sizes of their families in their regions. Plain data, so
 * the function that holds the catalog can answer it to one that applies plans without it.
 */
export interface PurchaseTerms {
  readonly provider: Provider;
  readonly offers: readonly OfferTerms[];
  readonly sizes: readonly CandidateSize[];
}

/** The terms of the offers `offerIds` of `provider` the catalog has (an offer it lacks is left out). */
export function purchaseTermsOf(
  catalog: PurchaseCatalog,
  provider: Provider,
  offerIds: Iterable<string>,
): PurchaseTerms {
  const offers: OfferTerms[] = [];
  for (const id of new Set(offerIds)) {
    const offer = catalog.offerById(id);
    if (offer?.provider === provider) offers.push(termsOf(offer));
  }
  const families = new Set(
    offers.flatMap((offer) =>
      offer.scope.kind === 'family' ? [`${offer.scope.family}|${offer.scope.region}`] : [],
    ),
  );
  const sizes = catalog
    .pricedInstances(provider)
    .filter((size) => families.has(`${size.family}|${size.region}`))
    .map(({ instanceType, family, region, units }) => ({ instanceType, family, region, units }));
  return { provider, offers, sizes };
}

/** The catalog the terms are of, for the offers they carry: what applying a plan prices its records with. */
export function orderCatalogOf(terms: PurchaseTerms): OrderCatalog {
  const byId = new Map(terms.offers.map((offer) => [offer.id, offer]));
  return {
    offerById: (id) => byId.get(id),
    pricedInstances: (provider) => (provider === terms.provider ? terms.sizes : []),
  };
}

function termsOf(offer: OfferTerms): OfferTerms {
  const { id, provider, contractType, upfront, recurring, termHours, scope } = offer;
  return {
    id,
    provider,
    contractType,
    upfront,
    recurring,
    termHours,
    scope:
      scope.kind === 'spend'
        ? { kind: 'spend' }
        : scope.kind === 'instance'
          ? { kind: 'instance', region: scope.region }
          : { kind: 'family', region: scope.region, family: scope.family },
  };
}
