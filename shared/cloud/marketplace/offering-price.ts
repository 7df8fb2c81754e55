/**
 * A provider offering's price per engine unit, checked against the line item's limit price
 * before anything is bought (docs/purchases.md: the offer's price has not moved).
 */
import { type LimitPrice, PriceAboveLimit } from '../../app/ports/marketplace';

/** Prices within this relative margin of the limit pass: the catalog and the provider round differently. */
const PRICE_TOLERANCE = 1e-6;

/** What one instance of a reservation costs, as a provider's offering lists it. */
export interface InstancePrice {
  /** One-off payment per instance. */
  readonly upfront: number;
  /** Recurring payment per instance-hour (usage price plus hourly recurring charges). */
  readonly recurring: number;
}

/** The recurring charges of an offering that are billed hourly, summed. */
export function hourlyCharges(
  usagePrice: number | undefined,
  recurring: readonly { Amount?: number | undefined; Frequency?: string | undefined }[] | undefined,
): number {
  let sum = usagePrice ?? 0;
  for (const charge of recurring ?? []) if (charge.Frequency === 'Hourly') sum += charge.Amount ?? 0;
  return sum;
}

/**
 * Refuses an offering dearer than the limit: per unit, its upfront and its effective hourly cost
 * (the upfront spread over the term plus the recurring charge). `offeringId` names it in the error.
 */
export function checkLimitPrice(
  price: InstancePrice,
  unitsPerInstance: number,
  termHours: number,
  limit: LimitPrice,
  offeringId: string,
): void {
  const upfront = price.upfront / unitsPerInstance;
  const hourly = (price.upfront / termHours + price.recurring) / unitsPerInstance;
  if (upfront > limit.upfront * (1 + PRICE_TOLERANCE) || hourly > limit.hourly * (1 + PRICE_TOLERANCE)) {
    throw new PriceAboveLimit(
      `offering ${offeringId} costs ${upfront} upfront and ${hourly}/h per unit, above the limit of ${limit.upfront} upfront and ${limit.hourly}/h`,
    );
  }
}
