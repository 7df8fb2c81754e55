/** Purchase requests for the marketplace tests, built from the bundled catalog's offers. */
import { type PurchaseRequest, purchaseClientToken } from '../../../shared/cloud/marketplace/marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { Offer } from '../../../shared/domain/engine/shapes/model';

export function catalogOffer(matches: (offer: Offer) => boolean): Offer {
  const offer = loadCatalog().offers().find(matches);
  if (!offer) throw new Error('no such offer in the bundled catalog');
  return offer;
}

/** A request for the line item, limited to the offer's own catalog price. */
export function purchaseRequest(
  offer: Offer,
  quantity: number,
  lineItemId = 'line-1',
  extra: Partial<PurchaseRequest> = {},
): PurchaseRequest {
  const planId = 'plan-1';
  return {
    orgId: 'org-1',
    planId,
    lineItemId,
    provider: offer.provider,
    accountId: '123456789012',
    offer,
    quantity,
    limitPrice: { upfront: offer.upfront, hourly: offer.upfront / offer.termHours + offer.recurring },
    clientToken: purchaseClientToken(planId, lineItemId),
    ...extra,
  };
}
