/**
 * Azure VM reservations bought through `Microsoft.Capacity` (docs/purchases.md, Azure): the order
 * id is derived from the client token, so every attempt names the same order. An order that
 * exists is followed to its end, never bought again; otherwise `calculatePrice` quotes it (the
 * plan's price must still hold), the order is PUT, and the long-running operation is polled until
 * the order and its reservations are `Succeeded`.
 */
import {
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import { deterministicUuid } from '../../domain/deterministic-id';
import { type ArmAnswer, ArmError, type ArmRequester, armGetOrNull, armRequest } from './azure-arm-requests';
import {
  type AzureScope,
  azurePricingTotal,
  azureTerm,
  checkQuote,
  pollToEnd,
  type QuotedTotal,
} from './azure-orders';
import { refusedBeforeBuying, refusedPurchase } from './azure-purchase-refusals';
import { reservationSize } from './purchase-quantity';

export const capacityApiVersion = '2022-11-01';

/** The reservation order every attempt of the line item PUTs: a GUID named by its client token. */
export function azureReservationOrderId(clientToken: string): string {
  return deterministicUuid('azure-reservation-order', clientToken);
}

const orderPath = (orderId: string) => `/providers/Microsoft.Capacity/reservationOrders/${orderId}`;

/** The states of an order (and of a reservation) that end it without a purchase. */
const failedStates = ['Failed', 'BillingFailed', 'Cancelled', 'Expired'];

export async function purchaseAzureReservation(
  arm: ArmRequester,
  request: PurchaseRequest,
  scope: AzureScope,
): Promise<PurchaseResult> {
  const size = reservationSize(request);
  const orderId = azureReservationOrderId(request.clientToken);
  const path = orderPath(orderId);
  let existing: ArmAnswer | null;
  try {
    existing = await armGetOrNull(arm, path, capacityApiVersion);
  } catch (error) {
    // A resumed attempt must learn what the earlier one did: never `failed` while ARM will not say.
    if (request.earlierAttemptsSince) {
      throw new PurchaseOutcomeUnknown(
        `ARM would not show reservation order ${orderId}, which an earlier attempt may have placed`,
      );
    }
    if (error instanceof ArmError && refusedBeforeBuying(error)) {
      return refusedPurchase(error, `reading reservation order ${orderId}`);
    }
    throw error;
  }
  if (existing) return finish(arm, path, request, size.count, null);

  const { offer } = request;
  const billingPlan = offer.paymentOption === 'All Upfront' ? 'Upfront' : 'Monthly';
  const body = {
    sku: { name: size.instanceType },
    location: offer.scope.kind === 'spend' ? '' : offer.scope.region,
    properties: {
      reservedResourceType: 'VirtualMachines',
      billingScopeId: `/subscriptions/${scope.subscriptionId}`,
      term: azureTerm(offer),
      billingPlan,
      quantity: size.count,
      displayName: `cps-${request.lineItemId}`.slice(0, 64),
      appliedScopeType: scope.single ? 'Single' : 'Shared',
      appliedScopes: scope.single ? [`/subscriptions/${scope.subscriptionId}`] : null,
      reservedResourceProperties: { instanceFlexibility: 'On' },
      renew: false,
    },
  };
  let quote: ArmAnswer;
  try {
    quote = await armRequest(arm, {
      method: 'POST',
      path: '/providers/Microsoft.Capacity/calculatePrice',
      apiVersion: capacityApiVersion,
      body,
    });
  } catch (error) {
    if (error instanceof ArmError && refusedBeforeBuying(error)) return refusedPurchase(error, 'the quote');
    throw error;
  }
  const quoted = azurePricingTotal((quote.body.properties ?? {}) as Record<string, unknown>);
  const priceRefusal = checkQuote(request, quoted);
  if (priceRefusal) return priceRefusal;

  let accepted: ArmAnswer;
  try {
    accepted = await armRequest(arm, { method: 'PUT', path, apiVersion: capacityApiVersion, body });
  } catch (error) {
    if (error instanceof ArmError && error.armCode === 'ReservationOrderIdAlreadyExists') {
      return finish(arm, path, request, size.count, quoted);
    }
    if (error instanceof ArmError && refusedBeforeBuying(error)) {
      return refusedPurchase(error, `reservation order ${orderId}`);
    }
    throw new PurchaseOutcomeUnknown(`the reservation order ${orderId} was sent without a clear answer`);
  }
  return finish(arm, path, request, size.count, quoted, accepted.retryAfterSeconds);
}

/** Polls the order to its end and answers what it bought. */
async function finish(
  arm: ArmRequester,
  path: string,
  request: PurchaseRequest,
  count: number,
  quoted: QuotedTotal | null,
  firstWaitSeconds: number | null = null,
): Promise<PurchaseResult> {
  const order = await pollToEnd(arm, {
    path,
    apiVersion: capacityApiVersion,
    query: { $expand: 'planInformation' },
    firstWaitSeconds,
    failedStates,
  });
  const properties = (order.body.properties ?? {}) as {
    provisioningState?: string;
    billingPlan?: string;
    reservations?: { id?: string }[];
    planInformation?: unknown;
  };
  if (failedStates.includes(properties.provisioningState ?? '')) {
    return {
      status: 'failed',
      message: `Azure ended reservation order ${path} ${properties.provisioningState}: nothing was bought; retry the purchase, or check the subscription's payment method in the Azure portal`,
      providerCode: 'OrderFailed',
    };
  }
  const reservationIds = (properties.reservations ?? []).map((each) => each.id ?? '').filter(Boolean);
  for (const id of reservationIds) {
    const reservation = await pollToEnd(arm, {
      path: id,
      apiVersion: capacityApiVersion,
      firstWaitSeconds: null,
      failedStates,
    });
    const state = ((reservation.body.properties ?? {}) as { provisioningState?: string }).provisioningState;
    if (state !== 'Succeeded') {
      throw new PurchaseOutcomeUnknown(`reservation ${id} of order ${path} is ${state}, not Succeeded`);
    }
  }
  const total =
    azurePricingTotal((properties.planInformation ?? {}) as Record<string, unknown>)?.amount ??
    quoted?.amount ??
    0;
  const monthly = properties.billingPlan === 'Monthly';
  return {
    status: 'completed',
    providerIds: [String(order.body.id ?? path), ...reservationIds],
    upfrontCost: monthly ? 0 : total,
    recurringCost: monthly ? total / request.offer.termHours : 0,
    providerQuantity: count,
  };
}
