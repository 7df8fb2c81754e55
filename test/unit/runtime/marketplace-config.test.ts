import { describe, expect, it } from 'vitest';
import { purchaseClientToken } from '../../../shared/cloud/marketplace/marketplace';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { awsMarketplaceFromEnvironment } from '../../../shared/runtime/aws-marketplace-environment';
import { simulatedMarketplaceFromEnvironment } from '../../../shared/runtime/simulated-marketplace-environment';

/** No org has onboarded: these tests never reach a purchase. */
const noExternalIds = async () => null;

const roleArn = 'arn:aws:iam::{account_id}:role/commitment-planning-purchaser';

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

  it("buys from aws in the aws processor, through the buying org's role", async () => {
    // Prepare
    const offer = loadCatalog()
      .offers('aws')
      .find((candidate) => candidate.contractType === 'standard_ris');
    if (!offer) throw new Error('no AWS offer in the catalog');
    const asked: string[] = [];
    const marketplace = awsMarketplaceFromEnvironment(
      { MARKETPLACE: 'aws', MARKETPLACE_ROLE_ARN: roleArn },
      async (orgId) => {
        asked.push(orgId);
        return null;
      },
    );

    // Act: an org that has not onboarded AWS has no role to buy through (the simulated one would buy)
    const result = await marketplace.purchase({
      orgId: 'org-1',
      planId: 'plan-1',
      lineItemId: 'line-1',
      provider: 'aws',
      accountId: '111122223333',
      offer,
      quantity: 1,
      limitPrice: { upfront: offer.upfront, hourly: offer.recurring + offer.upfront / offer.termHours },
      clientToken: purchaseClientToken('plan-1', 'line-1'),
    });

    // Assess
    expect(result).toMatchObject({ status: 'failed', providerCode: 'NotOnboarded' });
    expect(asked).toEqual(['org-1']);
  });

  it('refuses the aws processor without the role, or when the environment does not say aws', () => {
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
