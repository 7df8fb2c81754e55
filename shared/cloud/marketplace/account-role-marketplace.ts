import { AwsMarketplace } from './aws-marketplace';
import type { Marketplace, PurchaseRequest, PurchaseResult } from './marketplace';

export interface AccountRoleMarketplaceOptions {
  /**
   * The role purchases are made with, `{account_id}` standing for the buying account:
   * `arn:aws:iam::{account_id}:role/commitment-planning-purchaser` (the role the onboarding
   * template creates in each customer account).
   */
  readonly roleArnTemplate: string;
  readonly externalId: string;
}

const ACCOUNT_ID = /^\d{12}$/;

/**
 * The `aws` marketplace of a deployment: each purchase is made in the account that buys it,
 * through that account's role (one assumed-role client set per account, kept for the process).
 */
export function accountRoleMarketplace(options: AccountRoleMarketplaceOptions): Marketplace {
  const byAccount = new Map<string, AwsMarketplace>();
  return {
    purchase(request: PurchaseRequest): Promise<PurchaseResult> {
      // Azure and GCP accounts are not AWS accounts: the adapter answers them `manual` unsigned.
      const account = request.provider === 'aws' ? request.accountId : '000000000000';
      if (request.provider === 'aws' && !ACCOUNT_ID.test(account)) {
        return Promise.resolve({
          status: 'failed',
          message: `${account} is not an AWS account id`,
          providerCode: 'InvalidAccountId',
        });
      }
      let marketplace = byAccount.get(account);
      if (!marketplace) {
        marketplace = new AwsMarketplace({
          roleArn: options.roleArnTemplate.replaceAll('{account_id}', account),
          externalId: options.externalId,
        });
        byAccount.set(account, marketplace);
      }
      return marketplace.purchase(request);
    },
  };
}
