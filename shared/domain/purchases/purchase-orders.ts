import type { ExistingCommitment, LineItem, Offer, Provider } from '../engine';
import { offerCoverage } from '../engine/portfolio/commitment-offer';
import { providerQuantityOf } from './hand-completion';
import type { OfferTerms, OrderCatalog, PurchaseCatalog } from './purchase-catalog';
import { type PurchaseRecord, purchaseRecordId, selectedLineItems } from './purchase-record';

/** Units within this of a whole number count as that number (engine sums carry float noise). */
const WHOLE_TOLERANCE = 1e-9;

export type { CandidateSize, OfferTerms, OrderCatalog, PurchaseCatalog } from './purchase-catalog';

export interface PlanToBuy {
  readonly orgId: string;
  readonly planId: string;
  readonly provider: Provider;
  readonly lineItems: readonly LineItem[];
}

/** A selected line item the catalog cannot buy as planned (its offer is gone, or no size fits). */
export class UnpurchasableLineItem extends Error {
  static code = 'ERR_UNPURCHASABLE_LINE_ITEM';
  readonly code = UnpurchasableLineItem.code;
  constructor(
    readonly lineItemId: string,
    reason: string,
  ) {
    super(`Line item ${lineItemId} cannot be bought: ${reason}`);
    this.name = 'UnpurchasableLineItem';
  }
}

/**
 * The purchase records applying a plan creates, one per selected line item, each `queued`, its
 * limit price the catalog's price of the offer at this moment (the processor refuses to pay
 * more), its client token the line item's. Pure: the same plan and catalog give the same records.
 */
export function purchaseRecordsOf(
  plan: PlanToBuy,
  catalog: OrderCatalog,
  clientToken: (planId: string, lineItemId: string) => string,
  at: string,
): PurchaseRecord[] {
  return selectedLineItems(plan.lineItems).map((item) => {
    const offer = catalog.offerById(item.offer_id);
    if (!offer) throw new UnpurchasableLineItem(item.id, `offer ${item.offer_id} is not in the catalog`);
    const quantity = offer.scope.kind === 'spend' ? item.selected_commitment : item.selected_quantity;
    return {
      id: purchaseRecordId(plan.planId, item.id),
      orgId: plan.orgId,
      planId: plan.planId,
      lineItemId: item.id,
      provider: plan.provider,
      accountId: item.account_id,
      offerId: offer.id,
      contractType: offer.contractType,
      region: offer.scope.kind === 'spend' ? item.offer.region : offer.scope.region,
      quantity,
      instanceType: offer.scope.kind === 'family' ? familySizeToBuy(item.id, offer, quantity, catalog) : null,
      limitPrice: { upfront: offer.upfront, hourly: effectiveHourly(offer) },
      startsAt: item.startsAt ?? null,
      clientToken: clientToken(plan.planId, item.id),
      plannedUpfrontCost: quantity * offer.upfront,
      plannedRecurringCost: quantity * offer.recurring,
      status: 'queued',
      attempts: 0,
      claim: null,
      firstClaimedAt: null,
      providerIds: [],
      upfrontCost: null,
      recurringCost: null,
      providerQuantity: null,
      error: null,
      errorCode: null,
      reference: null,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
    };
  });
}

/** Upfront spread over the term plus the recurring charge: what one unit costs per hour. */
export function effectiveHourly(offer: Pick<Offer, 'upfront' | 'termHours' | 'recurring'>): number {
  return offer.upfront / offer.termHours + offer.recurring;
}

/**
 * The size a family reservation of `units` normalized units is bought in: the largest size of
 * the family (in the offer's region) that makes a whole number of instances, so the order has
 * the fewest instances and never a fraction.
 */
function familySizeToBuy(
  lineItemId: string,
  offer: OfferTerms,
  units: number,
  catalog: OrderCatalog,
): string {
  if (offer.scope.kind !== 'family') throw new TypeError('not a family offer');
  const { family, region } = offer.scope;
  const fitting = catalog
    .pricedInstances(offer.provider)
    .filter((size) => size.family === family && size.region === region && isWholeMultiple(units, size.units))
    .sort((a, b) => b.units - a.units || a.instanceType.localeCompare(b.instanceType));
  const size = fitting[0];
  if (!size) {
    throw new UnpurchasableLineItem(
      lineItemId,
      `no size of family ${family} in ${region} makes ${units} units whole`,
    );
  }
  return size.instanceType;
}

function isWholeMultiple(units: number, unitsPerInstance: number): boolean {
  const exact = units / unitsPerInstance;
  const count = Math.round(exact);
  return count >= 1 && Math.abs(exact - count) <= WHOLE_TOLERANCE * Math.max(1, exact);
}

const HOUR_MS = 3_600_000;

/**
 * The commitment a completed purchase owns from now on: the same item a commitments import
 * writes, so the chart shows it and plans are computed around it. Its id is the record's, so
 * writing it again after a redelivery changes nothing. It starts at the record's start when it
 * has one and completed before it (a queued renewal: the next plan counts it from then), else
 * when it completed.
 */
export function commitmentOf(record: PurchaseRecord, offer: Offer): ExistingCommitment {
  if (record.status !== 'completed' || record.completedAt === null) {
    throw new TypeError(`purchase ${record.id} is ${record.status}, not completed`);
  }
  return commitmentFrom(record, offer, record.completedAt, {
    quantity: record.providerQuantity ?? record.quantity,
    upfrontCost: record.upfrontCost ?? record.plannedUpfrontCost,
    recurringCost: record.recurringCost ?? record.plannedRecurringCost,
  });
}

/**
 * The commitment a purchase ordered and not yet completed (queued, being bought, waiting for its
 * start, or waiting for an operator) will be, as planned: owned for planning from the moment it
 * is ordered (docs/plan-engine.md, Ordered purchases), bought when it was ordered, starting at its
 * start or now, in the quantity and at the costs the plan asked for.
 */
export function orderedCommitmentOf(
  record: PurchaseRecord,
  offer: Offer,
  catalog: Pick<PurchaseCatalog, 'pricedInstances'>,
): ExistingCommitment {
  return commitmentFrom(record, offer, record.createdAt, {
    // The record counts in the offer's unit; a commitment in the provider's (instances of its size).
    quantity: providerQuantityOf(record, offer, catalog, record.quantity),
    upfrontCost: record.plannedUpfrontCost,
    recurringCost: record.plannedRecurringCost,
  });
}

function commitmentFrom(
  record: PurchaseRecord,
  offer: Offer,
  boughtAt: string,
  bought: { readonly quantity: number; readonly upfrontCost: number; readonly recurringCost: number },
): ExistingCommitment {
  // A queued purchase starts at its start; one bought at or after it, when it was bought.
  const start = Math.max(Date.parse(boughtAt), record.startsAt ? Date.parse(record.startsAt) : 0);
  const spend = offer.scope.kind === 'spend';
  return {
    id: record.id,
    provider: record.provider,
    accountId: record.accountId,
    region: record.region,
    contractType: offer.contractType,
    instanceType: spend
      ? null
      : (record.instanceType ?? (offer.scope.kind === 'instance' ? offer.scope.instanceType : null)),
    quantity: spend ? 0 : bought.quantity,
    hourlyCommitment: spend ? bought.quantity : 0,
    upfrontCost: bought.upfrontCost,
    recurringCost: bought.recurringCost,
    start: new Date(start).toISOString(),
    end: new Date(start + offer.termHours * HOUR_MS).toISOString(),
    lockinEnd: new Date(start + offer.lockinHours * HOUR_MS).toISOString(),
    purchasedAt: boughtAt,
    ...offerCoverage(offer),
  };
}
