import { describe, expect, it } from 'vitest';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { awsMarketplaceFromEnvironment } from '../../../shared/runtime/aws-marketplace-environment';
import { simulatedMarketplaceFromEnvironment } from '../../../shared/runtime/simulated-marketplace-environment';

/** No org has onboarded: these tests never reach a purchase. */
const noExternalIds = async () => null;

describe('the marketplace a deployment buys from', () => {
  it('is simulated in the default processor, so a fresh deployment buys nothing', () => {
    expect(simulatedMarketplaceFromEnvironment({})).toBeInstanceOf(SimulatedMarketplace);
    expect(simulatedMarketplaceFromEnvironment({ MARKETPLACE: 'simulated' })).toBeInstanceOf(
      SimulatedMarketplace,
    );
  });

  it('stops the default processor when the environment asks for another marketplace, rather than pretend to buy', () => {
    expect(() => simulatedMarketplaceFromEnvironment({ MARKETPLACE: 'aws' })).toThrow(
      'this processor is the simulated one',
    );
  });

  it('buys from aws in the aws processor only with the role, and only when the environment says aws', () => {
    const roleArn = 'arn:aws:iam::{account_id}:role/commitment-planning-purchaser';
    expect(
      awsMarketplaceFromEnvironment({ MARKETPLACE: 'aws', MARKETPLACE_ROLE_ARN: roleArn }, noExternalIds),
    ).not.toBeInstanceOf(SimulatedMarketplace);
    expect(() => awsMarketplaceFromEnvironment({ MARKETPLACE: 'aws' }, noExternalIds)).toThrow(
      'MARKETPLACE=aws needs MARKETPLACE_ROLE_ARN',
    );
    expect(() =>
      awsMarketplaceFromEnvironment(
        { MARKETPLACE: 'simulated', MARKETPLACE_ROLE_ARN: roleArn },
        noExternalIds,
      ),
    ).toThrow('but this processor buys from aws');
  });
});
