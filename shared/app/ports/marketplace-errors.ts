/** How a Marketplace adapter refuses or fails a purchase (the port: marketplace.ts). */

/**
 * Errors of the marketplace, each with a stable `code` (jose style: `static code` on the class,
 * the same `code` on each instance), so callers branch on codes, never on messages.
 */
export class MarketplaceError extends Error {
  static code = 'ERR_MARKETPLACE';
  /** The `static code` of the class the error was made as, so a subclass states its code once. */
  readonly code: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.code = (new.target as typeof MarketplaceError).code;
  }
}

/** The request is not a purchase of its own line item (token, provider or quantity do not fit). */
export class InvalidPurchaseRequest extends MarketplaceError {
  static override code = 'ERR_MARKETPLACE_INVALID_REQUEST';
}

/** The units do not make a whole number of instances of the size to buy: never buy a fraction. */
export class FractionalQuantity extends MarketplaceError {
  static override code = 'ERR_MARKETPLACE_FRACTIONAL_QUANTITY';
}

/** The provider lists no offering matching the offer. */
export class OfferingNotFound extends MarketplaceError {
  static override code = 'ERR_MARKETPLACE_OFFERING_NOT_FOUND';
}

/** The provider's price is above the limit price: the offer moved since it was planned. */
export class PriceAboveLimit extends MarketplaceError {
  static override code = 'ERR_MARKETPLACE_PRICE_ABOVE_LIMIT';
}

/**
 * The buy call failed in a way that does not say whether the provider bought (a timeout, a
 * server fault). Never record this as `failed`: a later call with the same token finds out.
 */
export class PurchaseOutcomeUnknown extends MarketplaceError {
  static override code = 'ERR_MARKETPLACE_OUTCOME_UNKNOWN';
}

/**
 * An earlier attempt may have bought this line item, and more than one purchase the provider
 * cannot tie to a client token could be it (EC2: several untagged reservations of the same order
 * made since that attempt began). Nothing was bought by this call, and buying again could buy
 * twice, so an operator decides which purchase, if any, is the line item's.
 *
 * A PurchaseOutcomeUnknown, not a plain MarketplaceError: whether the line item was bought is
 * exactly what is unknown, so it must never be recorded as `failed` (a failed line invites a
 * retry that buys again). The caller keeps the purchase unfinished; its message is retried and
 * dead-lettered until the operator has tagged the right purchase with the client token.
 */
export class AmbiguousEarlierPurchase extends PurchaseOutcomeUnknown {
  static override code = 'ERR_MARKETPLACE_AMBIGUOUS_EARLIER_PURCHASE';
  /** The provider's ids of the purchases that could be the earlier attempt's. */
  readonly candidates: readonly string[];

  constructor(message: string, candidates: readonly string[]) {
    super(message);
    this.candidates = candidates;
  }
}
