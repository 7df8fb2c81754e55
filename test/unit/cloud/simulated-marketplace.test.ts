import { describe, expect, it } from 'vitest';
import {
  InvalidPurchaseRequest,
  type MarketplaceError,
  purchaseClientToken,
} from '../../../shared/cloud/marketplace/marketplace';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { catalogOffer, purchaseRequest } from './marketplace-requests';

const m5Family = catalogOffer(
  (offer) =>
    offer.provider === 'aws' &&
    offer.contractType === 'standard_ris' &&
    offer.scope.kind === 'family' &&
    offer.paymentOption === 'All Upfront',
);

describe('purchaseClientToken', () => {
  it('names a line item by plan and line only, the same for every attempt', () => {
    expect(purchaseClientToken('plan-1', 'line-1')).toBe(purchaseClientToken('plan-1', 'line-1'));
    expect(purchaseClientToken('plan-1', 'line-2')).not.toBe(purchaseClientToken('plan-1', 'line-1'));
    expect(purchaseClientToken('plan-2', 'line-1')).not.toBe(purchaseClientToken('plan-1', 'line-1'));
  });
});

describe('SimulatedMarketplace', () => {
  it('buys once per client token: a repeated request answers the first purchase', async () => {
    // Prepare
    const marketplace = new SimulatedMarketplace();
    const request = purchaseRequest(m5Family, 16);
    // Act
    const first = await marketplace.purchase(request);
    const repeat = await marketplace.purchase(request);
    // Assess
    expect(repeat).toEqual(first);
    expect(marketplace.purchases()).toHaveLength(1);
    expect(first).toMatchObject({
      status: 'completed',
      upfrontCost: 16 * m5Family.upfront,
      providerQuantity: 16,
    });
  });

  it('refuses a token that is not derived from the plan and line item', async () => {
    const marketplace = new SimulatedMarketplace();
    const request = purchaseRequest(m5Family, 16, 'line-1', { clientToken: 'attempt-7' });
    const refusal = await marketplace.purchase(request).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidPurchaseRequest);
    expect((refusal as MarketplaceError).code).toBe('ERR_MARKETPLACE_INVALID_REQUEST');
    expect(marketplace.purchases()).toHaveLength(0);
  });

  it('fails a failing offer with its message, buys nothing, and buys once it stops failing', async () => {
    const marketplace = new SimulatedMarketplace();
    marketplace.failOffer(m5Family.id, 'Insufficient capacity for the demo');
    const request = purchaseRequest(m5Family, 8);

    expect(await marketplace.purchase(request)).toEqual({
      status: 'failed',
      message: 'Insufficient capacity for the demo',
      providerCode: 'SimulatedFailure',
    });
    expect(marketplace.purchases()).toHaveLength(0);

    marketplace.stopFailing(m5Family.id);
    expect(await marketplace.purchase(request)).toMatchObject({ status: 'completed' });
    expect(marketplace.purchases()).toHaveLength(1);
  });

  it('fails only the offer it was told to fail', async () => {
    const marketplace = new SimulatedMarketplace();
    const other = catalogOffer((offer) => offer.provider === 'azure');
    marketplace.failOffer(m5Family.id);
    expect(await marketplace.purchase(purchaseRequest(other, 4, 'line-2'))).toMatchObject({
      status: 'completed',
    });
  });

  it('completes every offer type of the catalog, guaranteed and Azure/GCP included, with distinct ids', async () => {
    // Prepare: one line item per catalog offer
    const marketplace = new SimulatedMarketplace();
    const offers = loadCatalog().offers();
    const kinds = new Set(offers.map((offer) => `${offer.provider} ${offer.contractType}`));
    // Act
    const results = await Promise.all(
      offers.map((offer, index) => marketplace.purchase(purchaseRequest(offer, 2, `line-${index}`))),
    );
    // Assess
    expect(results.every((result) => result.status === 'completed')).toBe(true);
    const ids = results.flatMap((result) => (result.status === 'completed' ? result.providerIds : []));
    expect(new Set(ids).size).toBe(offers.length);
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'aws leased_ris',
        'azure vm',
        'gcp standard_ris',
        'aws compute_plans',
        'aws db_ris',
      ]),
    );
  });

  it('refuses a repeated token that asks for another offer or quantity', async () => {
    const marketplace = new SimulatedMarketplace();
    await marketplace.purchase(purchaseRequest(m5Family, 8));
    await expect(marketplace.purchase(purchaseRequest(m5Family, 16))).rejects.toBeInstanceOf(
      InvalidPurchaseRequest,
    );
    expect(marketplace.purchases()).toHaveLength(1);
  });
});
