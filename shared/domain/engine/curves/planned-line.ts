/**
 * A line of a plan before it is shaped for output: an offer, whose usage it is shared with (the
 * sharing key of its pool: the org, or one account), the pool of streams it covers and the quantity
 * (units for reservations, dollars per hour for savings plans). The account that buys it is chosen
 * once its coverage is known (line-items.ts buyingAccount).
 */
import type { CoveragePool } from '../groups/coverage-pool';
import type { Offer, PlanProfile } from '../shapes/model';
import { type OfferEconomics, offerEconomics } from './quantity';

export interface PlannedLine {
  readonly offer: Offer;
  readonly sharingKey: string;
  readonly pool: CoveragePool;
  readonly quantity: number;
  /**
   * Its place in its pool's stack (docs/plan-engine.md, Layers): 0 for the pool's first line, k for
   * the line chosen on what lines 0..k-1 left. A line covers what the lines below it left.
   */
  readonly layer: number;
  /**
   * The pool's tier amounts over the whole window of the residual this line is applied to (after
   * the layers below it), when planning already computed them (saves a pass over the usage);
   * absent otherwise.
   */
  readonly amounts?: readonly Float64Array[];
  /**
   * Set on the parts of a reservation stack cut at its renewals (renewal-split.ts): when the part
   * starts, ISO 8601, or null (when bought). Absent: the line starts at the earliest end of the
   * renewed commitments its pool shares a stream with (renewal-starts.ts).
   */
  readonly startsAt?: string | null;
}

export const isSpendLine = (line: PlannedLine) => line.offer.scope.kind === 'spend';

/**
 * The order lines apply in, as providers bill them: reservations before savings plans, then by
 * sharing key, layer (a pool's lines from the bottom of its stack up) and offer id. Reservations
 * cover disjoint groups, so across groups only the first rule matters.
 */
export function applicationOrder(a: PlannedLine, b: PlannedLine): number {
  const kind = Number(isSpendLine(a)) - Number(isSpendLine(b));
  if (kind !== 0) return kind;
  const sharing = a.sharingKey < b.sharingKey ? -1 : a.sharingKey > b.sharingKey ? 1 : 0;
  if (sharing !== 0) return sharing;
  if (a.layer !== b.layer) return a.layer - b.layer;
  return a.offer.id < b.offer.id ? -1 : a.offer.id > b.offer.id ? 1 : 0;
}

/**
 * A and B computed once per (offer, profile). Keyed by the offer itself, not its id: an object key
 * is looked up by identity, and a wide catalog's offers are asked for many times per profile.
 */
export function economicsCache(profile: PlanProfile): (offer: Offer) => OfferEconomics {
  const cache = new Map<Offer, OfferEconomics>();
  return (offer) => {
    let economics = cache.get(offer);
    if (!economics) {
      economics = offerEconomics(offer, profile);
      cache.set(offer, economics);
    }
    return economics;
  };
}
