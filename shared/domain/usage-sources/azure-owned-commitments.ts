import { deterministicUuid } from '../deterministic-id';
import type { ExistingCommitment } from '../engine/shapes/model';
import { isoTimestamp } from '../iso-timestamps';

/**
 * The reservations (Microsoft.Capacity) and savings plans (Microsoft.BillingBenefits) an Azure
 * tenant owns, as ARM answers them, in the plan engine's model (docs/onboarding.md, What the sync
 * reads). Amounts are in the billing currency ARM answers; the engine reads them as the catalog's.
 */

/** A reservation of `GET /providers/Microsoft.Capacity/reservations` (the fields read). */
export interface AzureReservation {
  readonly id?: string;
  readonly location?: string;
  readonly sku?: { readonly name?: string };
  readonly properties?: {
    readonly reservedResourceType?: string;
    readonly appliedScopeType?: string;
    readonly appliedScopes?: readonly string[] | null;
    readonly quantity?: number;
    readonly provisioningState?: string;
    readonly effectiveDateTime?: string;
    readonly benefitStartTime?: string;
    readonly expiryDateTime?: string;
    /** `P1Y`, `P3Y`, `P5Y`. */
    readonly term?: string;
    /** `Upfront` or `Monthly`. */
    readonly billingPlan?: string;
  };
}

/** What the reservation's order cost in all: `planInformation.pricingCurrencyTotal` of the order. */
export interface AzureOrderPrice {
  readonly amount: number;
  /** The order's quantity, which its reservations (split or not) share. */
  readonly quantity: number;
}

/** A savings plan of `GET /providers/Microsoft.BillingBenefits/savingsPlans` (the fields read). */
export interface AzureSavingsPlan {
  readonly id?: string;
  readonly properties?: {
    readonly provisioningState?: string;
    readonly appliedScopeType?: string;
    readonly appliedScopeProperties?: { readonly subscriptionId?: string } | null;
    /** `P1M`: paid monthly; absent: paid up front. */
    readonly billingPlan?: string;
    readonly term?: string;
    readonly commitment?: { readonly grain?: string; readonly amount?: number };
    readonly effectiveDateTime?: string;
    readonly benefitStartTime?: string;
    readonly expiryDateTime?: string;
  };
}

const hoursPerYear = 8760;

/** The owned commitment's id of an ARM reservation, named by its ARM id (any case). */
const reservationCommitmentId = (armId: string) =>
  deterministicUuid('azure-reservation', armId.toLowerCase());
/** The owned commitment's id of an ARM savings plan, named by its ARM id (any case). */
const savingsPlanCommitmentId = (armId: string) =>
  deterministicUuid('azure-savings-plan', armId.toLowerCase());

/**
 * The ids the sync gives what the ARM id `providerId` names, were it a reservation or a savings
 * plan (an id alone does not say which): a completed purchase records the ids ARM answered, so
 * the sync matches what it reads to the purchase (docs/usage-sync.md).
 */
export function azureOwnedCommitmentIds(providerId: string): string[] {
  return [reservationCommitmentId(providerId), savingsPlanCommitmentId(providerId)];
}

/** `P1Y` -> 8760 hours; the terms Azure sells are whole years. */
export function azureTermHours(term: string | undefined): number {
  const match = /^P(\d+)Y$/.exec(term ?? '');
  if (!match) throw new Error(`the provider answered term ${term}`);
  return Number(match[1]) * hoursPerYear;
}

const active = (state: string | undefined) => state === 'Succeeded';

function instant(text: string | undefined, what: string): number {
  const ms = Date.parse(text ?? '');
  if (!Number.isFinite(ms)) throw new Error(`the provider answered no ${what}`);
  return ms;
}

/** `/subscriptions/<id>[/...]` -> `<id>`. */
function subscriptionOf(scope: string | undefined): string | null {
  return /^\/subscriptions\/([^/]+)/i.exec(scope ?? '')?.[1] ?? null;
}

/**
 * A virtual-machine reservation; null when it is not in force (provisioning, cancelled, expired)
 * or reserves something else. A single-scope reservation belongs to its subscription; a shared
 * one to the subscription it was read for. Its price is its share of the order's total: up front,
 * or spread over the term's hours when paid monthly.
 */
export function azureReservationCommitment(
  reservation: AzureReservation,
  price: AzureOrderPrice,
  subscriptionId: string,
): ExistingCommitment | null {
  const properties = reservation.properties ?? {};
  if (!active(properties.provisioningState) || properties.reservedResourceType !== 'VirtualMachines')
    return null;
  const id = reservation.id ?? '';
  const quantity = properties.quantity ?? 0;
  if (!id || !reservation.sku?.name || !reservation.location || quantity <= 0) {
    throw new Error(`the provider answered an incomplete reservation ${id}`);
  }
  const termHours = azureTermHours(properties.term);
  const start = instant(properties.benefitStartTime ?? properties.effectiveDateTime, `start of ${id}`);
  const end = instant(properties.expiryDateTime, `expiryDateTime of ${id}`);
  const total = price.quantity > 0 ? (price.amount * quantity) / price.quantity : 0;
  const monthly = properties.billingPlan === 'Monthly';
  const single =
    properties.appliedScopeType === 'Single' ? subscriptionOf(properties.appliedScopes?.[0]) : null;
  return {
    id: reservationCommitmentId(id),
    provider: 'azure',
    accountId: single ?? subscriptionId,
    region: reservation.location.toLowerCase(),
    contractType: 'vm',
    instanceType: reservation.sku.name,
    quantity,
    hourlyCommitment: 0,
    upfrontCost: monthly ? 0 : total,
    recurringCost: monthly ? total / termHours : 0,
    start: isoTimestamp(start),
    end: isoTimestamp(end),
    lockinEnd: isoTimestamp(end),
    paymentOption: monthly ? 'No Upfront' : 'All Upfront',
  };
}

/** A savings plan for compute; null when it is not in force. Its hourly commitment is paid monthly or up front for the term. */
export function azureSavingsPlanCommitment(
  plan: AzureSavingsPlan,
  subscriptionId: string,
): ExistingCommitment | null {
  const properties = plan.properties ?? {};
  if (!active(properties.provisioningState)) return null;
  const id = plan.id ?? '';
  const hourly = properties.commitment?.amount ?? 0;
  if (!id || properties.commitment?.grain !== 'Hourly' || hourly <= 0) {
    throw new Error(`the provider answered a savings plan ${id} without an hourly commitment`);
  }
  const termHours = azureTermHours(properties.term);
  const start = instant(properties.benefitStartTime ?? properties.effectiveDateTime, `start of ${id}`);
  const end = instant(properties.expiryDateTime, `expiryDateTime of ${id}`);
  const monthly = properties.billingPlan === 'P1M';
  const single =
    properties.appliedScopeType === 'Single'
      ? (properties.appliedScopeProperties?.subscriptionId ?? null)
      : null;
  return {
    id: savingsPlanCommitmentId(id),
    provider: 'azure',
    accountId: subscriptionOf(single ?? undefined) ?? single ?? subscriptionId,
    region: '',
    contractType: 'compute_plans',
    instanceType: null,
    quantity: 0,
    hourlyCommitment: hourly,
    upfrontCost: monthly ? 0 : hourly * termHours,
    recurringCost: monthly ? hourly : 0,
    start: isoTimestamp(start),
    end: isoTimestamp(end),
    lockinEnd: isoTimestamp(end),
    paymentOption: monthly ? 'No Upfront' : 'All Upfront',
  };
}
