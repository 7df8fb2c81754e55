import { describe, expect, it } from 'vitest';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { marketplaceFromEnvironment } from '../../../shared/runtime/marketplace';

/** No org has onboarded: these tests never reach a purchase. */
const noExternalIds = async () => null;

describe('the marketplace a deployment buys from', () => {
  it('is simulated unless the operator chooses aws, so a fresh deployment buys nothing', () => {
    expect(marketplaceFromEnvironment({}, noExternalIds)).toBeInstanceOf(SimulatedMarketplace);
    expect(marketplaceFromEnvironment({ MARKETPLACE: 'simulated' }, noExternalIds)).toBeInstanceOf(
      SimulatedMarketplace,
    );
  });

  it('refuses aws without the role, and any other kind', () => {
    expect(() => marketplaceFromEnvironment({ MARKETPLACE: 'aws' }, noExternalIds)).toThrow(
      'MARKETPLACE=aws needs MARKETPLACE_ROLE_ARN',
    );
    expect(() => marketplaceFromEnvironment({ MARKETPLACE: 'real' }, noExternalIds)).toThrow(
      'MARKETPLACE must be simulated or aws',
    );
  });
});
