import type { OfferPlace } from '../app/apply-context';
import type { OrderCatalog } from '../domain/purchases/purchase-catalog';
import { orderCatalogOf, type PurchaseTerms } from '../domain/purchases/purchase-terms';
import { configuredRegion } from './aws';
import { lambdaInvoker } from './lambda-invoke';
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
  const functionName = env.PLAN_COMPUTATION_FUNCTION;
  if (!functionName) {
    throw new Error('PLAN_COMPUTATION_FUNCTION is not set: the function that holds the catalog');
  }
  let invoke: ReturnType<typeof lambdaInvoker> | undefined;
  return async (places) => {
    const wanted = [...places];
    const provider = wanted[0]?.provider;
    // No line bought: nothing to ask (the apply is refused as having nothing to buy).
    if (!provider) return orderCatalogOf({ provider: 'aws', offers: [], sizes: [] });
    if (wanted.some((place) => place.provider !== provider)) {
      throw new TypeError('The offers of one plan are of one provider');
    }
    invoke ??= lambdaInvoker(configuredRegion(env));
    const request: PurchaseTermsRequest = {
      kind: 'purchase_terms',
      provider,
      offers: wanted.map(({ offerId, region }) => ({ offerId, region })),
    };
    const { functionError, text } = await invoke(functionName, request);
    if (functionError)
      throw new PurchaseTermsFailed(`The catalog's terms of the plan's offers failed: ${text}`);
    return orderCatalogOf(purchaseTermsIn(text, provider));
  };
}

function purchaseTermsIn(text: string, provider: string): PurchaseTerms {
  let terms: unknown;
  try {
    terms = JSON.parse(text);
  } catch {
    throw new PurchaseTermsFailed(`The plan computation answered no JSON: ${text.slice(0, 200)}`);
  }
  const answer = terms as Partial<PurchaseTerms> | null;
  if (answer?.provider !== provider || !Array.isArray(answer.offers) || !Array.isArray(answer.sizes)) {
    throw new PurchaseTermsFailed(`The plan computation answered no purchase terms: ${text.slice(0, 200)}`);
  }
  return answer as PurchaseTerms;
}
