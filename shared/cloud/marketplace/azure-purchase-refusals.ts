import type { PurchaseResult } from '../../app/ports/marketplace';
import type { ArmError } from './azure-arm-requests';

type FailedPurchase = Extract<PurchaseResult, { status: 'failed' }>;

/**
 * What a partner does about each refusal ARM gives (docs/purchases.md, Azure refusals). The
 * record keeps ARM's own code as its `error_code`, and the message says what to change.
 */
const hints: readonly { readonly codes: readonly string[]; readonly hint: string }[] = [
  {
    codes: ['AuthorizationFailed', 'Forbidden', 'LinkedAuthorizationFailed'],
    hint: "the service's application lacks a permission in the customer's tenant: grant the action Azure names (the Reservation Purchaser or Savings plan Purchaser role) and retry the purchase",
  },
  {
    codes: [
      'NonsupportedAccountId',
      'CustomerCannotPurchaseSavingsPlan',
      'NotSupportedCountry',
      'ReservationOrderNotEnabled',
      'SubscriptionNotEligible',
    ],
    hint: 'the subscription cannot buy this commitment (its offer type is not eligible): buy with an Enterprise, Microsoft Customer Agreement or pay-as-you-go subscription',
  },
  {
    codes: ['QuotaExceeded', 'FulfillmentOutOfStockError'],
    hint: "the subscription's quota or the region's capacity does not allow the quantity: raise the quota or buy less",
  },
  {
    codes: ['SkuNotAvailable', 'InvalidLocationId'],
    hint: 'Azure does not offer this size in this region: choose another size or region in the next plan',
  },
  {
    codes: ['TooManyRequests'],
    hint: 'Azure throttled the purchase past the retries: nothing was bought; retry the purchase later',
  },
];

/** A refusal made before anything was bought, named by ARM's code, with what to do about it. */
export function refusedPurchase(error: ArmError, what: string): FailedPurchase {
  const hint = hints.find((each) => each.codes.includes(error.armCode))?.hint;
  return {
    status: 'failed',
    message: `Azure refused ${what}${hint ? `: ${hint}` : ''} (${error.armCode}: ${error.message})`,
    providerCode: error.armCode,
  };
}

/** Whether ARM's refusal of a buy call says for sure that nothing was bought (a client fault). */
export function refusedBeforeBuying(error: ArmError): boolean {
  return error.status >= 400 && error.status < 500 && error.status !== 408;
}
