import { describe, expect, it } from 'vitest';
import { accountRoleMarketplace } from '../../../shared/cloud/marketplace/account-role-marketplace';
import { type PurchaseRequest, purchaseClientToken } from '../../../shared/cloud/marketplace/marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';

const catalog = loadCatalog();
const awsOffer = catalog.offers('aws').find((offer) => offer.contractType === 'standard_ris');
const azureOffer = catalog.offers('azure')[0];

function request(
  offer: NonNullable<typeof awsOffer>,
  overrides: Partial<PurchaseRequest> = {},
): PurchaseRequest {
  return {
    orgId: 'org-1',
    planId: 'plan-1',
    lineItemId: 'line-1',
    provider: offer.provider,
    accountId: '111122223333',
    offer,
    quantity: 1,
    limitPrice: { upfront: offer.upfront, hourly: offer.recurring + offer.upfront / offer.termHours },
    clientToken: purchaseClientToken('plan-1', 'line-1'),
    ...overrides,
  };
}

describe("buying in the buying org's account through its onboarding role", () => {
  const asked: string[] = [];
  const marketplace = accountRoleMarketplace({
    roleArnTemplate: 'arn:aws:iam::{account_id}:role/commitment-planning-purchaser',
    externalIdOf: async (orgId) => {
      asked.push(orgId);
      return orgId === 'onboarded-org' ? 'cpo-0123456789abcdef0123456789abcdef' : null;
    },
  });

  it('fails, buying nothing, for an org that has not onboarded AWS: no ExternalId, no role to assume', async () => {
    if (!awsOffer) throw new Error('no AWS offer in the catalog');
    const result = await marketplace.purchase(request(awsOffer));
    expect(result).toMatchObject({ status: 'failed', providerCode: 'NotOnboarded' });
    expect(asked).toContain('org-1');
  });

  it('fails an account id that is not an AWS account, without asking for a role', async () => {
    if (!awsOffer) throw new Error('no AWS offer in the catalog');
    const result = await marketplace.purchase(
      request(awsOffer, { orgId: 'onboarded-org', accountId: 'acme' }),
    );
    expect(result).toMatchObject({ status: 'failed', providerCode: 'InvalidAccountId' });
  });

  it('leaves Azure lines to an operator without any AWS call', async () => {
    if (!azureOffer) throw new Error('no Azure offer in the catalog');
    const result = await marketplace.purchase(request(azureOffer, { accountId: 'subscription-1' }));
    expect(result.status).toBe('manual');
  });
});
