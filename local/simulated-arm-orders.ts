import type { Catalog } from '../shared/domain/catalog/catalog';
import { deterministicUuid } from '../shared/domain/deterministic-id';
import type { ExistingCommitment } from '../shared/domain/engine/shapes/model';
import {
  type AzureReservation,
  type AzureSavingsPlan,
  azureReservationCommitment,
  azureSavingsPlanCommitment,
  azureTermHours,
} from '../shared/domain/usage-sources/azure-owned-commitments';

/**
 * What the simulated tenant's ARM keeps of what was bought (local/simulated-arm.ts): reservation
 * orders and savings plan orders in ARM's own JSON, kept in the tenant of `simulated-cloud.json`,
 * so that the sync reads exactly those back.
 */
export interface SimulatedArmOrders {
  /** By order id (lower case): the order and its one reservation, as ARM answers them. */
  reservation_orders: Record<string, SimulatedReservationOrder>;
  /** By alias name: the alias as ARM answers it. */
  savings_plan_aliases: Record<string, SimulatedSavingsPlanOrder>;
}

export interface SimulatedReservationOrder {
  /** The PUT's body, to tell a repeated PUT of the same order from another. */
  request: unknown;
  order: Record<string, unknown>;
  reservation: AzureReservation;
  /** GETs still answered before the order ends. */
  polls_left: number;
  outcome: 'Succeeded' | 'Failed';
}

export interface SimulatedSavingsPlanOrder {
  request: unknown;
  alias: Record<string, unknown>;
  order: Record<string, unknown>;
  plan: AzureSavingsPlan;
  polls_left: number;
  outcome: 'Succeeded' | 'Failed';
}

export function emptyArmOrders(): SimulatedArmOrders {
  return { reservation_orders: {}, savings_plan_aliases: {} };
}

/** An hourly price per instance of a VM size in a region for a term and billing plan; null: not sold there. */
export type ArmPriceList = (
  sku: string,
  location: string,
  term: string,
  billingPlan: string,
) => number | null;

/**
 * Prices as Azure's retail prices would quote them, here the bundled catalog's (its Azure
 * size-flexible offers per unit, times the size's units).
 */
export function catalogArmPrices(catalog: Catalog): ArmPriceList {
  return (sku, location, term, billingPlan) => {
    const size = catalog
      .pricedInstances('azure')
      .find((each) => each.instanceType.toLowerCase() === sku.toLowerCase() && each.region === location);
    if (!size) return null;
    const offer = catalog
      .offers('azure')
      .find(
        (each) =>
          each.scope.kind === 'family' &&
          each.scope.family === size.family &&
          each.scope.region === location &&
          each.term === (term === 'P3Y' ? 'three_year' : 'one_year') &&
          each.paymentOption === (billingPlan === 'Upfront' ? 'All Upfront' : 'No Upfront'),
      );
    if (!offer) return null;
    return (offer.upfront / offer.termHours + offer.recurring) * size.units;
  };
}

const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

export interface ReservationPurchase {
  readonly sku: { readonly name: string };
  readonly location: string;
  readonly properties: {
    readonly billingScopeId: string;
    readonly term: string;
    readonly billingPlan: string;
    readonly quantity: number;
    readonly displayName?: string;
    readonly appliedScopeType: string;
    readonly appliedScopes?: readonly string[] | null;
  };
}

/** The order a PUT places: `Creating` until polled `pollsToSucceed` times, then its outcome. */
export function placeReservationOrder(
  orderId: string,
  body: ReservationPurchase,
  total: number,
  now: number,
  pollsToSucceed: number,
  outcome: 'Succeeded' | 'Failed',
): SimulatedReservationOrder {
  const id = `/providers/microsoft.capacity/reservationOrders/${orderId}`;
  const reservationId = `${id}/reservations/${deterministicUuid('simulated-reservation', orderId)}`;
  const { properties } = body;
  const end = now + azureTermHours(properties.term) * HOUR_MS;
  return {
    request: body,
    polls_left: pollsToSucceed,
    outcome,
    order: {
      id,
      type: 'Microsoft.Capacity/reservationOrders',
      name: orderId,
      etag: 1,
      properties: {
        displayName: properties.displayName ?? orderId,
        requestDateTime: iso(now),
        createdDateTime: iso(now),
        benefitStartTime: iso(now),
        expiryDateTime: iso(end),
        term: properties.term,
        billingPlan: properties.billingPlan,
        provisioningState: 'Creating',
        reservations: [{ id: reservationId }],
        originalQuantity: properties.quantity,
        planInformation: { pricingCurrencyTotal: { currencyCode: 'USD', amount: total } },
      },
    },
    reservation: {
      id: reservationId,
      location: body.location,
      sku: { name: body.sku.name },
      properties: {
        reservedResourceType: 'VirtualMachines',
        appliedScopeType: properties.appliedScopeType,
        appliedScopes: properties.appliedScopes ?? null,
        quantity: properties.quantity,
        provisioningState: 'Creating',
        effectiveDateTime: iso(now),
        benefitStartTime: iso(now),
        expiryDateTime: iso(end),
        term: properties.term,
        billingPlan: properties.billingPlan,
      },
    },
  };
}

export interface SavingsPlanPurchase {
  readonly properties: {
    readonly billingScopeId: string;
    readonly term: string;
    readonly billingPlan?: string;
    readonly displayName?: string;
    readonly appliedScopeType: string;
    readonly appliedScopeProperties?: { readonly subscriptionId?: string } | null;
    readonly commitment: { readonly grain: string; readonly currencyCode: string; readonly amount: number };
  };
}

export function placeSavingsPlanOrder(
  alias: string,
  body: SavingsPlanPurchase,
  now: number,
  pollsToSucceed: number,
  outcome: 'Succeeded' | 'Failed',
): SimulatedSavingsPlanOrder {
  const orderGuid = deterministicUuid('simulated-savings-plan-order', alias);
  const orderId = `/providers/Microsoft.BillingBenefits/savingsPlanOrders/${orderGuid}`;
  const planId = `${orderId}/savingsPlans/${deterministicUuid('simulated-savings-plan', alias)}`;
  const { properties } = body;
  const end = now + azureTermHours(properties.term) * HOUR_MS;
  const billing = properties.billingPlan ? { billingPlan: properties.billingPlan } : {};
  return {
    request: body,
    polls_left: pollsToSucceed,
    outcome,
    alias: {
      id: `/providers/Microsoft.BillingBenefits/savingsPlanOrderAliases/${alias}`,
      name: alias,
      type: 'Microsoft.BillingBenefits/savingsPlanOrderAliases',
      sku: { name: 'Compute_Savings_Plan' },
      properties: { ...properties, savingsPlanOrderId: orderId, provisioningState: 'Created' },
    },
    order: {
      id: orderId,
      name: orderGuid,
      type: 'Microsoft.BillingBenefits/savingsPlanOrders',
      sku: { name: 'Compute_Savings_Plan' },
      properties: {
        billingScopeId: properties.billingScopeId,
        savingsPlans: [planId],
        term: properties.term,
        ...billing,
        displayName: properties.displayName ?? alias,
        provisioningState: 'Created',
        expiryDateTime: iso(end),
      },
    },
    plan: {
      id: planId,
      properties: {
        provisioningState: 'Created',
        appliedScopeType: properties.appliedScopeType,
        appliedScopeProperties: properties.appliedScopeProperties ?? null,
        ...billing,
        term: properties.term,
        commitment: { grain: properties.commitment.grain, amount: properties.commitment.amount },
        effectiveDateTime: iso(now),
        benefitStartTime: iso(now),
        expiryDateTime: iso(end),
      },
    },
  };
}

/** One GET of a pending order: it ends once its polls are used up. */
export function pollOrder(placed: SimulatedReservationOrder | SimulatedSavingsPlanOrder): void {
  if (placed.polls_left > 0) {
    placed.polls_left -= 1;
    return;
  }
  const state = placed.outcome;
  const set = (resource: { properties?: unknown }) => {
    (resource.properties as { provisioningState?: string }).provisioningState = state;
  };
  set(placed.order);
  if ('reservation' in placed) set(placed.reservation);
  else {
    set(placed.alias);
    set(placed.plan);
  }
}

/**
 * What the tenant owns of the subscription from what it bought through ARM, in force at `now`,
 * read as the ARM adapter of the sync reads it (the same domain functions).
 */
export function simulatedArmCommitments(
  orders: SimulatedArmOrders | undefined,
  subscriptionId: string,
  now: number,
): ExistingCommitment[] {
  if (!orders) return [];
  const ours = (commitment: ExistingCommitment | null): commitment is ExistingCommitment =>
    commitment !== null &&
    commitment.accountId.toLowerCase() === subscriptionId.toLowerCase() &&
    Date.parse(commitment.end) > now;
  const reserved = Object.values(orders.reservation_orders).map((placed) => {
    const properties = placed.order.properties as {
      originalQuantity: number;
      planInformation: { pricingCurrencyTotal: { amount: number } };
    };
    return azureReservationCommitment(
      placed.reservation,
      {
        amount: properties.planInformation.pricingCurrencyTotal.amount,
        quantity: properties.originalQuantity,
      },
      subscriptionId,
    );
  });
  const plans = Object.values(orders.savings_plan_aliases).map((placed) =>
    azureSavingsPlanCommitment(placed.plan, subscriptionId),
  );
  return [...reserved, ...plans].filter(ours);
}
