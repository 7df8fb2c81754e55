import type { Provider } from '../domain/engine';
import { type PurchaseTerms, purchaseTermsOf } from '../domain/purchases/purchase-terms';
import type { CatalogStore } from './ports/catalog';
import { purchasingCatalog } from './stored-catalog';

/**
 * The current catalog's terms for the offers a plan being applied buys, each in the region of its
 * line (docs/purchases.md, Pricing the records): what the plan-computation function answers the
 * plan-purchases function, which prices the purchase records with them and carries no catalog.
 */
export async function currentPurchaseTerms(
  store: CatalogStore,
  provider: Provider,
  offers: readonly { readonly offerId: string; readonly region: string }[],
): Promise<PurchaseTerms> {
  const catalog = await purchasingCatalog(store)(offers.map(({ region }) => ({ provider, region })));
  return purchaseTermsOf(
    catalog,
    provider,
    offers.map((offer) => offer.offerId),
  );
}
