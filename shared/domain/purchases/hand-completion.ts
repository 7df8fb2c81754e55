import type { Offer } from '../engine';
import type { PurchaseCatalog } from './purchase-catalog';
import type { PurchaseRecord } from './purchase-record';

/** Units within this of a whole number of instances count as that number (float noise). */
const WHOLE_TOLERANCE = 1e-9;

/** What an operator bought by hand: their reference, the quantity in the provider's unit, the cost. */
export interface HandCompletion {
  readonly reference: string;
  /** Instances of the size bought (reservations), or $/h (savings plans): what the provider counts. */
  readonly providerQuantity: number;
  readonly upfrontCost: number;
  readonly recurringCost: number;
}

/** An operator's quantity that is not what the offer can have been bought in. */
export class InvalidHandQuantity extends Error {
  static code = 'ERR_INVALID_HAND_QUANTITY';
  readonly code = InvalidHandQuantity.code;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidHandQuantity';
  }
}

/** The unit an offer's quantity is counted in: what `complete-purchase --quantity` takes. */
export function offerUnit(offer: Pick<Offer, 'scope'>): string {
  switch (offer.scope.kind) {
    case 'instance':
      return 'instances';
    case 'family':
      return 'normalized units';
    case 'spend':
      return '$/h of commitment';
  }
}

/**
 * The completion of a purchase bought by hand, from the quantity the operator bought in the
 * offer's unit (the unit the plan and the record count in). A size-flexible reservation is
 * counted by the provider in instances of the size bought: 64 normalized units bought as
 * m5.8xlarge (64 units each) is 1 instance, never 64. Costs are the offer's per-unit prices
 * times the quantity.
 */
export function handCompletionOf(
  record: Pick<PurchaseRecord, 'id' | 'instanceType' | 'provider'>,
  offer: Offer,
  catalog: Pick<PurchaseCatalog, 'pricedInstances'>,
  quantity: number,
  reference: string,
): HandCompletion {
  if (!(Number.isFinite(quantity) && quantity > 0)) {
    throw new InvalidHandQuantity(`the quantity must be more than 0 ${offerUnit(offer)}; got ${quantity}`);
  }
  const costs = { upfrontCost: offer.upfront * quantity, recurringCost: offer.recurring * quantity };
  return { reference, providerQuantity: providerQuantityOf(record, offer, catalog, quantity), ...costs };
}

/**
 * `quantity` in the offer's unit as the provider counts it: a size-flexible reservation in
 * instances of the record's size (64 normalized units of m5.8xlarge are 1 instance), anything
 * else as it is. InvalidHandQuantity when it is not a whole number of instances.
 */
export function providerQuantityOf(
  record: Pick<PurchaseRecord, 'id' | 'instanceType' | 'provider'>,
  offer: Offer,
  catalog: Pick<PurchaseCatalog, 'pricedInstances'>,
  quantity: number,
): number {
  if (offer.scope.kind === 'instance' && !Number.isInteger(quantity)) {
    throw new InvalidHandQuantity(`an instance reservation is bought in whole instances; got ${quantity}`);
  }
  if (offer.scope.kind !== 'family') return quantity;
  const { family, region } = offer.scope;
  const size = catalog
    .pricedInstances(record.provider)
    .find((each) => each.instanceType === record.instanceType && each.region === region);
  if (!size) {
    throw new InvalidHandQuantity(
      `purchase ${record.id} names no priced size of family ${family} in ${region} (${record.instanceType})`,
    );
  }
  const instances = quantity / size.units;
  const whole = Math.round(instances);
  if (whole < 1 || Math.abs(instances - whole) > WHOLE_TOLERANCE * Math.max(1, instances)) {
    throw new InvalidHandQuantity(
      `${quantity} normalized units are not a whole number of ${size.instanceType} (${size.units} units each)`,
    );
  }
  return whole;
}
