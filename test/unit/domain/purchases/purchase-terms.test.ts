import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { purchaseClientToken } from '../../../../shared/cloud/marketplace/marketplace';
import { loadCatalog } from '../../../../shared/domain/catalog/catalog';
import type { LineItem, Offer, Provider } from '../../../../shared/domain/engine';
import { purchaseRecordsOf } from '../../../../shared/domain/purchases/purchase-orders';
import { orderCatalogOf, purchaseTermsOf } from '../../../../shared/domain/purchases/purchase-terms';

/**
 * The terms the plan-computation function answers for a plan's offers price and size its purchase
 * records exactly as the whole catalog does (docs/purchases.md, Pricing the records): the oracle is
 * `purchaseRecordsOf` over the catalog itself, on lines of the bundled catalog's own offers.
 */

const catalog = loadCatalog();
const at = '2026-11-29T03:00:00.000Z';

/** A selected line buying `offer`, in the region the engine names for it. */
function lineOf(offer: Offer, index: number, units: number): LineItem {
  const spend = offer.scope.kind === 'spend';
  return {
    id: `line-${index}`,
    offer_id: offer.id,
    account_id: '123456789012',
    is_selected: true,
    selected_quantity: spend ? 0 : units,
    selected_commitment: spend ? units / 4 : 0,
    offer: { region: spend ? 'global' : offer.scope.region },
    startsAt: null,
  } as unknown as LineItem;
}

/** The records of `lines`, or the error that refuses them. */
function recordsOrRefusal(
  provider: Provider,
  lines: LineItem[],
  prices: Parameters<typeof purchaseRecordsOf>[1],
) {
  try {
    return purchaseRecordsOf(
      { orgId: 'o', planId: 'p', provider, lineItems: lines },
      prices,
      purchaseClientToken,
      at,
    );
  } catch (error) {
    return (error as Error).message;
  }
}

/** The terms as the plan-purchases function gets them: through JSON, as Lambda carries them. */
function termsOverTheWire(provider: Provider, lines: LineItem[]) {
  const terms = purchaseTermsOf(
    catalog,
    provider,
    lines.map((line) => line.offer_id),
  );
  return orderCatalogOf(JSON.parse(JSON.stringify(terms)));
}

const providers = ['aws', 'azure'] as const;

describe('the purchase terms of a plan', () => {
  it('price and size the records as the whole catalog, for any lines of its offers', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...providers).chain((provider) =>
          fc.record({
            provider: fc.constant(provider),
            lines: fc.array(
              fc.record({
                offer: fc.constantFrom(...catalog.offers(provider)),
                // Units of any size: some no size of a family makes whole (a 409 either way).
                units: fc.integer({ min: 1, max: 96 }),
              }),
              { minLength: 1, maxLength: 6 },
            ),
          }),
        ),
        ({ provider, lines }) => {
          // Prepare
          const items = lines.map(({ offer, units }, index) => lineOf(offer, index, units));

          // Act
          const fromTerms = recordsOrRefusal(provider, items, termsOverTheWire(provider, items));

          // Assess
          expect(fromTerms).toEqual(recordsOrRefusal(provider, items, catalog));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leave out an offer the catalog lacks, so that its line is refused as with the catalog', () => {
    // Prepare
    const [known] = catalog.offers('aws');
    if (!known) throw new Error('the bundled catalog has no AWS offer');
    const gone = { ...known, id: '00000000-0000-4000-8000-000000000000' };
    const items = [lineOf(known, 0, 8), lineOf(gone, 1, 8)];

    // Act
    const terms = purchaseTermsOf(catalog, 'aws', [known.id, gone.id]);

    // Assess
    expect(terms.offers.map((offer) => offer.id)).toEqual([known.id]);
    expect(recordsOrRefusal('aws', items, orderCatalogOf(terms))).toBe(
      `Line item line-1 cannot be bought: offer ${gone.id} is not in the catalog`,
    );
  });

  it("carry a family's sizes in its region only, and no savings plan's rates", () => {
    // Prepare
    const family = catalog.offers('aws').find((offer) => offer.scope.kind === 'family');
    const spend = catalog.offers('aws').find((offer) => offer.scope.kind === 'spend');
    if (family?.scope.kind !== 'family' || !spend)
      throw new Error('the bundled catalog lacks a family or spend offer');

    // Act
    const terms = purchaseTermsOf(catalog, 'aws', [family.id, spend.id]);

    // Assess
    const { family: name, region } = family.scope;
    expect(terms.sizes.length).toBeGreaterThan(0);
    expect(terms.sizes.every((size) => size.family === name && size.region === region)).toBe(true);
    expect(terms.offers.find((offer) => offer.id === spend.id)?.scope).toEqual({ kind: 'spend' });
  });
});
