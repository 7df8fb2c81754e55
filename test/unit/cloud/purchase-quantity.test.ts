import { describe, expect, it } from 'vitest';
import { FractionalQuantity, InvalidPurchaseRequest } from '../../../shared/cloud/marketplace/marketplace';
import { reservationSize, savingsPlanCommitment } from '../../../shared/cloud/marketplace/purchase-quantity';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { catalogOffer, purchaseRequest } from './marketplace-requests';

/** One size-flexible AWS offer per family (EC2 and RDS), and the family's sizes the catalog prices. */
const familyOffers = new Map(
  loadCatalog()
    .offers('aws')
    .flatMap((offer) => (offer.scope.kind === 'family' ? [[offer.scope.family, offer] as const] : [])),
);
const familySizes = (family: string) =>
  new Map(
    loadCatalog()
      .pricedInstances('aws')
      .filter((instance) => instance.family === family)
      .map((instance) => [instance.instanceType, instance.units] as const),
  );

describe('reservationSize', () => {
  it('buys n instances for n times the size units, and refuses every other unit count (brute force)', () => {
    // Oracle: a units count is buyable exactly when some whole n >= 1 has n * factor = units.
    for (const [family, offer] of familyOffers) {
      for (const [instanceType, factor] of familySizes(family)) {
        const wholes = new Set(Array.from({ length: 6 }, (_, n) => (n + 1) * factor));
        for (let half = 1; half < 6 * factor * 2; half += 1) {
          const units = half / 2;
          const request = purchaseRequest(offer, units, 'line-1', { instanceType });
          if (wholes.has(units)) {
            expect(reservationSize(request)).toEqual({
              instanceType,
              unitsPerInstance: factor,
              count: units / factor,
            });
          } else {
            expect(() => reservationSize(request)).toThrow(FractionalQuantity);
          }
        }
      }
    }
    expect([...familyOffers.keys()]).toEqual(expect.arrayContaining(['m5', 'db.r5']));
  });

  it('counts units summed with float noise as the whole number they are', () => {
    const m5 = catalogOffer(
      (offer) => offer.provider === 'aws' && offer.scope.kind === 'family' && offer.scope.family === 'm5',
    );
    const units = 0.1 * 3 * 80; // 24.000000000000004: 3 instances of 8 units
    expect(reservationSize(purchaseRequest(m5, units, 'line-1', { instanceType: 'm5.xlarge' })).count).toBe(
      3,
    );
  });

  it('buys an exact offer as that many instances of its type, and never a fraction', () => {
    const exact = catalogOffer((offer) => offer.provider === 'aws' && offer.scope.kind === 'instance');
    expect(reservationSize(purchaseRequest(exact, 5)).count).toBe(5);
    expect(() => reservationSize(purchaseRequest(exact, 2.5))).toThrow(FractionalQuantity);
  });

  it('refuses a savings plan offer', () => {
    const plan = catalogOffer((offer) => offer.scope.kind === 'spend');
    expect(() => reservationSize(purchaseRequest(plan, 1))).toThrow(InvalidPurchaseRequest);
  });
});

describe('savingsPlanCommitment', () => {
  it('keeps at most five decimals, cutting down, never up', () => {
    expect(savingsPlanCommitment(2.5)).toBe('2.5');
    expect(savingsPlanCommitment(1.999999)).toBe('1.99999');
    expect(savingsPlanCommitment(12)).toBe('12');
    expect(savingsPlanCommitment(0.30000000000000004)).toBe('0.3');
  });

  it('refuses a commitment below $0.001/h', () => {
    expect(() => savingsPlanCommitment(0.0009)).toThrow(InvalidPurchaseRequest);
  });
});
