import { loadCatalog } from '../../shared/domain/catalog/catalog';
import type { Offer, PaymentOption } from '../../shared/domain/engine/shapes/model';

/** The bundled catalog, which the catalog's unit tests read (test/unit/catalog/catalog-*.test.ts). */
export const catalog = loadCatalog();

export const ALL_PAYMENTS: PaymentOption[] = ['No Upfront', 'Partial Upfront', 'All Upfront'];

/** An offer's cost per hour of its term, upfront spread over it. */
export function effectiveRate(offer: Offer): number {
  return offer.upfront / offer.termHours + offer.recurring;
}

/** The bundled catalog's offers that `predicate` holds for. */
export function find(predicate: (offer: Offer) => boolean): Offer[] {
  return catalog.offers().filter(predicate);
}
