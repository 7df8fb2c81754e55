import type { Offer, Provider } from '../engine';

/** An instance size the catalog prices: its family and the units one instance counts for. */
export interface CandidateSize {
  readonly instanceType: string;
  readonly family: string;
  readonly region: string;
  readonly units: number;
}

/** What pricing and sizing a plan's purchases need from the catalog (the catalog itself is one). */
export interface PurchaseCatalog {
  offerById(id: string): Offer | undefined;
  /** Every size the catalog prices for the provider (the sizes a family reservation may be bought in). */
  pricedInstances(provider: Provider): readonly CandidateSize[];
}

/**
 * What ordering an offer needs to know of it: its price, its term and what it covers, without a
 * savings plan's rates (a catalog's offer is one).
 */
export interface OfferTerms {
  readonly id: string;
  readonly provider: Provider;
  readonly contractType: Offer['contractType'];
  readonly upfront: number;
  readonly recurring: number;
  readonly termHours: number;
  readonly scope:
    | { readonly kind: 'spend' }
    | { readonly kind: 'instance'; readonly region: string }
    | { readonly kind: 'family'; readonly region: string; readonly family: string };
}

/** What applying a plan prices and sizes its purchase records with (a catalog is one). */
export interface OrderCatalog {
  offerById(id: string): OfferTerms | undefined;
  /** Every size the catalog prices for the provider (the sizes a family reservation may be bought in). */
  pricedInstances(provider: Provider): readonly CandidateSize[];
}
