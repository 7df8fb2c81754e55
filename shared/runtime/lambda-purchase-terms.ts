import type { OfferPlace } from '../app/apply-context';
import type { OrderCatalog } from '../domain/purchases/purchase-catalog';
import { orderCatalogOf, type PurchaseTerms } from '../domain/purchases/purchase-terms';
import { planComputationInvoker } from './plan-computation-invoke';
import type { PurchaseTermsRequest } from './plan-computation-request';

/** The plan-computation function failed to answer the terms, or answered something else. */
export class PurchaseTermsFailed extends Error {
  override readonly name = 'PurchaseTermsFailed';
}

/**
 * The catalog applying a plan prices its records with, on AWS: the current catalog's terms for the
 * offers bought, answered by the plan-computation function (`PLAN_COMPUTATION_FUNCTION`, invoked
 * synchronously), which holds the catalog, so that the plan-purchases function carries none
 * (docs/purchases.md, Pricing the records). A failure fails the apply before it writes anything.
 */
export function lambdaPurchaseTerms(
  env: NodeJS.ProcessEnv,
): (offers: Iterable<OfferPlace>) => Promise<OrderCatalog> {
  const ask = planComputationInvoker(env, "the catalog's terms");
  const failed = (reason: string) =>
    new PurchaseTermsFailed(`The catalog's terms of the plan's offers: the plan computation ${reason}`);
  return async (places) => {
    const wanted = [...places];
    const provider = wanted[0]?.provider;
    // No line bought: nothing to ask (the apply is refused as having nothing to buy).
    if (!provider) return orderCatalogOf({ provider: 'aws', offers: [], sizes: [] });
    if (wanted.some((place) => place.provider !== provider)) {
      throw new TypeError('The offers of one plan are of one provider');
    }
    const request: PurchaseTermsRequest = {
      kind: 'purchase_terms',
      provider,
      offers: wanted.map(({ offerId, region }) => ({ offerId, region })),
    };
    const answer = (await ask(request, failed)) as Partial<PurchaseTerms> | null;
    if (answer?.provider !== provider || !Array.isArray(answer.offers) || !Array.isArray(answer.sizes)) {
      throw failed(`answered no purchase terms: ${JSON.stringify(answer).slice(0, 200)}`);
    }
    return orderCatalogOf(answer as PurchaseTerms);
  };
}
