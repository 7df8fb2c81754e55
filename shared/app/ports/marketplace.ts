/**
 * The Marketplace port (docs/purchases.md): buys one line item's commitment from its provider. Adapters:
 * `simulated` (the default everywhere) and `aws` (the customer's account, through its role).
 *
 * A purchase is named by its client token, derived from (plan id, line item id) only: every
 * attempt, redelivery or operator retry of the same line item carries the same token, so an
 * adapter can tell a repeat from a new purchase and never buy twice.
 */
import { deterministicUuid } from '../../domain/deterministic-id';
import type { Offer, Provider } from '../../domain/engine/shapes/model';
import { InvalidPurchaseRequest, PurchaseOutcomeUnknown } from './marketplace-errors';

export * from './marketplace-errors';

/** The most one unit may cost, in the engine's units (an instance-hour, a normalized unit, $1/h of commitment). */
export interface LimitPrice {
  /** One-off payment per unit. */
  readonly upfront: number;
  /** Effective cost per unit-hour: the upfront spread over the term plus the recurring charge. */
  readonly hourly: number;
}

export interface PurchaseRequest {
  readonly orgId: string;
  readonly planId: string;
  readonly lineItemId: string;
  readonly provider: Provider;
  /** The provider account that buys (and whose role the `aws` adapter assumes). */
  readonly accountId: string;
  readonly offer: Offer;
  /**
   * In the engine's units: instances for an exact offer, normalized units for a size-flexible
   * family offer, $/h of commitment for a savings plan.
   */
  readonly quantity: number;
  /**
   * The size to buy for a size-flexible family reservation (`m5.xlarge` for family `m5`): the
   * quantity in units is bought as units / its factor instances. Ignored for other offers.
   */
  readonly instanceType?: string;
  readonly limitPrice: LimitPrice;
  /** `purchaseClientToken(planId, lineItemId)`: adapters refuse any other. */
  readonly clientToken: string;
  /**
   * Set when an earlier attempt of this line item may have reached the provider and died before
   * recording the answer: when it started (ISO 8601). An adapter whose provider cannot look a
   * purchase up by the client token alone (EC2 tags the reservation only after buying it) looks
   * for an untagged purchase of the same order made since then before buying.
   */
  readonly earlierAttemptsSince?: string;
  /**
   * ISO 8601: queue the purchase to start then (a renewal starts at the end of the commitment it
   * renews) instead of now. Only for an offer `queuesPurchase` answers true for: a provider
   * without queued purchases is asked at the start time instead, without this field.
   */
  readonly startsAt?: string;
}

export type PurchaseResult =
  | {
      readonly status: 'completed';
      /** The provider's ids of what was bought: RI ids, the savings plan id, the reserved DB instance id. */
      readonly providerIds: readonly string[];
      /** Total one-off payment. */
      readonly upfrontCost: number;
      /** Total recurring payment per hour. */
      readonly recurringCost: number;
      /** What was bought, in the provider's units: instances, or $/h of commitment. */
      readonly providerQuantity: number;
      /** A queued purchase: when the commitment starts (the request's `startsAt`). Absent: now. */
      readonly startsAt?: string;
    }
  /** Nothing bought: an operator fulfils this line by hand (guaranteed offers, Azure and GCP with `aws`). */
  | { readonly status: 'manual'; readonly reason: string }
  /** The provider refused: nothing was bought. */
  | { readonly status: 'failed'; readonly message: string; readonly providerCode: string };

export interface Marketplace {
  /**
   * Buys the line item, or answers what an earlier call with the same client token bought.
   * Throws a MarketplaceError when the request cannot be bought as asked (nothing was bought).
   */
  purchase(request: PurchaseRequest): Promise<PurchaseResult>;
}

/** The client token of a line item's purchase: a function of (plan id, line item id) only, never of an attempt. */
export function purchaseClientToken(planId: string, lineItemId: string): string {
  return deterministicUuid('purchase', planId, lineItemId);
}

/** Refuses a request whose token is not its line item's, or whose quantity or provider is not buyable. */
export function checkPurchaseRequest(request: PurchaseRequest): void {
  if (request.clientToken !== purchaseClientToken(request.planId, request.lineItemId)) {
    throw new InvalidPurchaseRequest('the client token is not derived from the plan id and line item id');
  }
  if (request.provider !== request.offer.provider) {
    throw new InvalidPurchaseRequest(
      `the offer is a ${request.offer.provider} offer, not ${request.provider}`,
    );
  }
  if (!Number.isFinite(request.quantity) || request.quantity <= 0) {
    throw new InvalidPurchaseRequest(`the quantity must be a positive number, not ${request.quantity}`);
  }
  if (request.earlierAttemptsSince !== undefined && Number.isNaN(Date.parse(request.earlierAttemptsSince))) {
    // Not an InvalidPurchaseRequest: an earlier attempt may have bought, so this must not end `failed`.
    throw new PurchaseOutcomeUnknown(
      `earlierAttemptsSince must be an ISO 8601 time, not ${request.earlierAttemptsSince}`,
    );
  }
  if (request.startsAt !== undefined) {
    if (Number.isNaN(Date.parse(request.startsAt))) {
      throw new InvalidPurchaseRequest(`startsAt must be an ISO 8601 time, not ${request.startsAt}`);
    }
    if (!queuesPurchase(request.offer)) {
      throw new InvalidPurchaseRequest(
        `offer ${request.offer.providerOfferingId} cannot be queued: buy it at ${request.startsAt}`,
      );
    }
  }
}

/**
 * Whether the provider can queue a purchase of the offer to start later: AWS Savings Plans
 * (CreateSavingsPlan `purchaseTime`) and regional EC2 reservations (PurchaseReservedInstancesOffering
 * `PurchaseTime`; every offering bought here is regional). RDS has no queued purchase, and the
 * offers an operator fulfils are bought by hand.
 */
export function queuesPurchase(offer: Offer): boolean {
  if (offer.provider !== 'aws' || isGuaranteedOffer(offer)) return false;
  return (
    offer.scope.kind === 'spend' ||
    offer.contractType === 'standard_ris' ||
    offer.contractType === 'convertible_ris'
  );
}

/** Guaranteed (leased) offers: the service holds the provider's commitment, so an operator fulfils them. */
export function isGuaranteedOffer(offer: Offer): boolean {
  return offer.contractType.startsWith('leased_');
}
