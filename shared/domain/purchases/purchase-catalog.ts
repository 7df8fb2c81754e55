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
