import { describe, expect, it } from 'vitest';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { marketplaceFromEnvironment } from '../../../shared/runtime/marketplace';

describe('the marketplace a deployment buys from', () => {
  it('is simulated unless the operator chooses aws, so a fresh deployment buys nothing', () => {
    expect(marketplaceFromEnvironment({})).toBeInstanceOf(SimulatedMarketplace);
    expect(marketplaceFromEnvironment({ MARKETPLACE: 'simulated' })).toBeInstanceOf(SimulatedMarketplace);
  });

  it('refuses aws without the role, and any other kind', () => {
    expect(() => marketplaceFromEnvironment({ MARKETPLACE: 'aws' })).toThrow(
      'MARKETPLACE=aws needs MARKETPLACE_ROLE_ARN',
    );
    expect(() => marketplaceFromEnvironment({ MARKETPLACE: 'real' })).toThrow(
      'MARKETPLACE must be simulated or aws',
    );
  });
});
