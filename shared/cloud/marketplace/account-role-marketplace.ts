import type { Marketplace, PurchaseRequest, PurchaseResult } from '../../app/ports/marketplace';
import { AwsMarketplace } from './aws-marketplace';

export interface AccountRoleMarketplaceOptions {
  /**
   * The role purchases are made with, `{account_id}` standing for the buying account:
   * `arn:aws:iam::{account_id}:role/commitment-planning-purchaser` (the role the onboarding
   * template creates in each customer account).
   */
  readonly roleArnTemplate: string;
  /**
   * The ExternalId the buying org's role trusts: each org's own (its onboarding record,
   * docs/onboarding.md); null when the org has not onboarded AWS, so no role of it can be assumed.
   */
  readonly externalIdOf: (orgId: string) => Promise<string | null>;
}

const ACCOUNT_ID = /^\d{12}$/;
/** For offers no AWS account buys (Azure, GCP): the adapter answers them `manual` without a role. */
const ANY_ACCOUNT = '000000000000';

/**
 * The `aws` marketplace of a deployment: each purchase is made in the account that buys it,
 * through that account's role (one assumed-role client set per account, kept for the process).
 */
export function accountRoleMarketplace(options: AccountRoleMarketplaceOptions): Marketplace {
  const byRole = new Map<string, AwsMarketplace>();
  return {
    async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
      // Azure and GCP accounts are not AWS accounts: the adapter answers them `manual` unsigned.
      if (request.provider !== 'aws') return adapterFor(ANY_ACCOUNT, 'unused').purchase(request);
      if (!ACCOUNT_ID.test(request.accountId)) {
        return {
          status: 'failed',
          message: `${request.accountId} is not an AWS account id`,
          providerCode: 'InvalidAccountId',
        };
      }
      const externalId = await options.externalIdOf(request.orgId);
      if (externalId === null) {
        return {
          status: 'failed',
          message: `organization ${request.orgId} has not onboarded AWS: there is no role to buy with (docs/onboarding.md)`,
          providerCode: 'NotOnboarded',
        };
      }
      return adapterFor(request.accountId, externalId).purchase(request);
    },
  };

  /** One assumed-role adapter per account and ExternalId, kept for the process. */
  function adapterFor(account: string, externalId: string): AwsMarketplace {
    const key = `${account}/${externalId}`;
    let marketplace = byRole.get(key);
    if (!marketplace) {
      marketplace = new AwsMarketplace({
        roleArn: options.roleArnTemplate.replaceAll('{account_id}', account),
        externalId,
      });
      byRole.set(key, marketplace);
    }
    return marketplace;
  }
}
