import type { Provider } from '../domain/engine';

/**
 * What the plan-serving functions send the plan-computation function (an event of a synchronous
 * Invoke): the org and provider whose plans are missing or stale.
 */
export interface PlanComputationRequest {
  readonly orgId: string;
  readonly provider: Provider;
}

/**
 * What the plan-purchases function sends it to price the records of a plan it applies: the offers
 * of the lines bought and their regions (docs/purchases.md, Pricing the records).
 */
export interface PurchaseTermsRequest {
  readonly kind: 'purchase_terms';
  readonly provider: Provider;
  readonly offers: readonly { readonly offerId: string; readonly region: string }[];
}

const providers: readonly string[] = ['aws', 'azure', 'gcp'] satisfies readonly Provider[];

/** The request in `event`; a TypeError naming the field when it is not one. */
export function planComputationRequest(event: unknown): PlanComputationRequest | PurchaseTermsRequest {
  const { orgId, provider, kind, offers } = (event ?? {}) as Record<string, unknown>;
  if (kind === 'purchase_terms') return { kind, provider: providerIn(provider), offers: offerPlaces(offers) };
  if (typeof orgId !== 'string' || orgId === '') {
    throw new TypeError('A plan computation request needs orgId, a non-empty string');
  }
  return { orgId, provider: providerIn(provider) };
}

function providerIn(provider: unknown): Provider {
  if (typeof provider !== 'string' || !providers.includes(provider)) {
    throw new TypeError(`A plan computation request needs provider, one of ${providers.join(', ')}`);
  }
  return provider as Provider;
}

function offerPlaces(offers: unknown): PurchaseTermsRequest['offers'] {
  const valid =
    Array.isArray(offers) &&
    offers.every((offer: { offerId?: unknown; region?: unknown } | null) => {
      return typeof offer?.offerId === 'string' && typeof offer.region === 'string';
    });
  if (!valid) {
    throw new TypeError('A purchase terms request needs offers, an array of { offerId, region } strings');
  }
  return (offers as PurchaseTermsRequest['offers']).map(({ offerId, region }) => ({ offerId, region }));
}
