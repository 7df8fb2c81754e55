/**
 * A line of a plan before it is shaped for output: an offer, the account it is bought in, the pool
 * of streams it covers and the quantity (units for reservations, dollars per hour for savings plans).
 */
import type { CoveragePool } from './coverage-pool';
import type { Offer, PlanProfile } from './model';
import { type OfferEconomics, offerEconomics } from './quantity';

export interface PlannedLine {
  readonly offer: Offer;
  readonly accountId: string;
  readonly pool: CoveragePool;
  readonly quantity: number;
  /**
   * The pool's tier amounts over the whole window of the residual this line is applied to, when
   * planning already computed them (saves a pass over the usage); absent otherwise.
   */
  readonly amounts?: readonly Float64Array[];
}

export const isSpendLine = (line: PlannedLine) => line.offer.scope.kind === 'spend';

/**
 * The order lines apply in, as providers bill them: reservations before savings plans, then by
 * account and offer id. Reservations cover disjoint groups, so only that first rule matters.
 */
export function applicationOrder(a: PlannedLine, b: PlannedLine): number {
  const kind = Number(isSpendLine(a)) - Number(isSpendLine(b));
  if (kind !== 0) return kind;
  const account = a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0;
  return account !== 0 ? account : a.offer.id < b.offer.id ? -1 : a.offer.id > b.offer.id ? 1 : 0;
}

/** A and B computed once per (offer, profile). */
export function economicsCache(profile: PlanProfile): (offer: Offer) => OfferEconomics {
  const cache = new Map<string, OfferEconomics>();
  return (offer) => {
    let economics = cache.get(offer.id);
    if (!economics) {
      economics = offerEconomics(offer, profile);
      cache.set(offer.id, economics);
    }
    return economics;
  };
}
