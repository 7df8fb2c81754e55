/**
 * From the engine's units to what a provider sells: whole instances of one size, or a savings
 * plan commitment in $/h with the provider's precision.
 */

import {
  FractionalQuantity,
  InvalidPurchaseRequest,
  type PurchaseRequest,
} from '../../app/ports/marketplace';
import { sizeInstance } from '../../domain/catalog/instance-units';
import type { Offer } from '../../domain/engine/shapes/model';

/** Units within this of a whole number of instances count as that number (engine sums carry float noise). */
const WHOLE_TOLERANCE = 1e-9;

export interface ReservationSize {
  /** The instance type bought. */
  readonly instanceType: string;
  /** Units one instance of it counts for within the offer (1 for an exact offer). */
  readonly unitsPerInstance: number;
  /** Instances to buy. */
  readonly count: number;
}

/**
 * The instances a reservation request buys: for an exact offer, quantity instances of its type;
 * for a size-flexible family offer, quantity normalized units as units / factor instances of the
 * requested size, which must be a whole number (never a fraction: refused otherwise).
 */
export function reservationSize(request: PurchaseRequest): ReservationSize {
  const { offer, quantity } = request;
  if (offer.scope.kind === 'spend') {
    throw new InvalidPurchaseRequest(
      `offer ${offer.providerOfferingId} is a savings plan, not a reservation`,
    );
  }
  if (offer.scope.kind === 'instance') {
    return {
      instanceType: offer.scope.instanceType,
      unitsPerInstance: 1,
      count: wholeCount(quantity, 1, offer),
    };
  }
  const { instanceType } = request;
  if (!instanceType) {
    throw new InvalidPurchaseRequest(
      `offer ${offer.providerOfferingId} is size-flexible: name the instance type to buy`,
    );
  }
  const sized = sizeInstance(offer.provider, instanceType);
  if (!sized || sized.family !== offer.scope.family) {
    throw new InvalidPurchaseRequest(`${instanceType} is not a size of family ${offer.scope.family}`);
  }
  return { instanceType, unitsPerInstance: sized.units, count: wholeCount(quantity, sized.units, offer) };
}

function wholeCount(units: number, unitsPerInstance: number, offer: Offer): number {
  const exact = units / unitsPerInstance;
  const count = Math.round(exact);
  if (count < 1 || Math.abs(exact - count) > WHOLE_TOLERANCE * Math.max(1, exact)) {
    throw new FractionalQuantity(
      `${units} units of ${offer.providerOfferingId} are ${exact} instances of ${unitsPerInstance} units: not a whole number`,
    );
  }
  return count;
}

/** Savings Plans take a commitment with at most five decimals, from $0.001/h. */
const COMMITMENT_DECIMALS = 5;
const MIN_COMMITMENT = 0.001;

/**
 * The $/h commitment as the Savings Plans API takes it: cut (never rounded up) to five decimals,
 * so the purchase never commits more than the plan asked for.
 */
export function savingsPlanCommitment(quantity: number): string {
  const scale = 10 ** COMMITMENT_DECIMALS;
  const cut = Math.floor(quantity * scale + WHOLE_TOLERANCE) / scale;
  if (cut < MIN_COMMITMENT) {
    throw new InvalidPurchaseRequest(
      `a savings plan commitment of ${quantity} $/h is below ${MIN_COMMITMENT} $/h`,
    );
  }
  return cut.toFixed(COMMITMENT_DECIMALS).replace(/\.?0+$/, '');
}
