/**
 * The `simulated` marketplace: the default everywhere (local, tests, a fresh deployment), so
 * nothing is bought until an operator chooses `aws`. It fulfils every offer type, guaranteed and
 * Azure/GCP included, so any plan completes; it answers a repeated client token with the first
 * purchase; it queues a purchase to start later where the provider can (`queuesPurchase`) and
 * refuses to where it cannot, as the `aws` adapter does; and it can be told to fail an offer, for
 * tests and demos.
 */

import {
  checkPurchaseRequest,
  InvalidPurchaseRequest,
  isGuaranteedOffer,
  type Marketplace,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import { deterministicUuid } from '../../domain/deterministic-id';
import type { Offer } from '../../domain/engine/shapes/model';
import { reservationSize } from './purchase-quantity';

type CompletedPurchase = Extract<PurchaseResult, { status: 'completed' }>;

/** One purchase the simulated provider made. */
export interface SimulatedPurchase {
  readonly clientToken: string;
  readonly request: PurchaseRequest;
  readonly result: CompletedPurchase;
}

export const SIMULATED_FAILURE_CODE = 'SimulatedFailure';

/** Ids in the shape each provider gives them, named after the client token so they stay stable. */
function providerId(offer: Offer, request: PurchaseRequest): string {
  const id = deterministicUuid('simulated-purchase', request.clientToken);
  if (isGuaranteedOffer(offer)) return `lease-${id}`;
  switch (offer.provider) {
    case 'aws':
      if (offer.scope.kind === 'spend') return id;
      if (offer.contractType === 'db_ris') return `cps-${request.clientToken}`;
      return id;
    case 'azure':
      return offer.scope.kind === 'spend'
        ? `/providers/Microsoft.BillingBenefits/savingsPlanOrders/${id}`
        : `/providers/Microsoft.Capacity/reservationOrders/${id}`;
    case 'gcp': {
      const region = offer.scope.kind === 'spend' ? 'global' : offer.scope.region;
      return `projects/${request.accountId}/regions/${region}/commitments/cud-${id}`;
    }
  }
}

export class SimulatedMarketplace implements Marketplace {
  readonly #purchases = new Map<string, SimulatedPurchase>();
  readonly #failing = new Map<string, string>();

  /** Every later purchase of this offer fails with the message, until `stopFailing`. */
  failOffer(offerId: string, message = 'The simulated provider refused this offer'): void {
    this.#failing.set(offerId, message);
  }

  stopFailing(offerId: string): void {
    this.#failing.delete(offerId);
  }

  /** What was bought, in purchase order. */
  purchases(): readonly SimulatedPurchase[] {
    return [...this.#purchases.values()];
  }

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    checkPurchaseRequest(request);
    const earlier = this.#purchases.get(request.clientToken);
    if (earlier) {
      if (earlier.request.offer.id !== request.offer.id || earlier.request.quantity !== request.quantity) {
        throw new InvalidPurchaseRequest(
          `client token ${request.clientToken} bought ${earlier.request.quantity} of offer ${earlier.request.offer.id} already`,
        );
      }
      return earlier.result;
    }
    const failure = this.#failing.get(request.offer.id);
    if (failure !== undefined)
      return { status: 'failed', message: failure, providerCode: SIMULATED_FAILURE_CODE };
    const { offer, quantity } = request;
    const result: CompletedPurchase = {
      status: 'completed',
      providerIds: [providerId(offer, request)],
      upfrontCost: offer.upfront * quantity,
      recurringCost: offer.recurring * quantity,
      // Reservations are counted in instances of the size bought, as providers count them.
      providerQuantity:
        offer.scope.kind === 'family' && request.instanceType ? reservationSize(request).count : quantity,
      // Queued as the provider would queue it (checkPurchaseRequest refused an offer it cannot queue).
      ...(request.startsAt ? { startsAt: request.startsAt } : {}),
    };
    this.#purchases.set(request.clientToken, { clientToken: request.clientToken, request, result });
    return result;
  }
}
