/**
 * The `azure` marketplace (docs/purchases.md, Azure): buys an Azure line item in the customer's
 * tenant with the service's Entra application (client credentials, the tenant's admin having
 * consented): VM reservations through `Microsoft.Capacity`, savings plans through
 * `Microsoft.BillingBenefits`. Guaranteed (leased) offers stay with an operator.
 */
import {
  checkPurchaseRequest,
  InvalidPurchaseRequest,
  isGuaranteedOffer,
  type Marketplace,
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import type { TokenSource } from '../verifiers/azure-arm-probe';
import type { ArmRequester } from './azure-arm-requests';
import { purchaseAzureReservation } from './azure-reservations';
import { purchaseAzureSavingsPlan } from './azure-savings-plans';

/** The tenant a subscription of the org was connected in, and whose usage its commitments cover. */
export interface AzureBuyer {
  readonly tenantId: string;
  /** The org's sharing is `account`: the commitment applies to the buying subscription alone. */
  readonly single: boolean;
}

export interface AzureMarketplaceOptions {
  /** ARM tokens of the service's app in a tenant (clientSecretTokens). */
  readonly armTokens: TokenSource;
  /**
   * The org's connected tenant for the subscription (its onboarding record, the admin having
   * consented); null when the org has no consented tenant.
   */
  readonly buyerOf: (orgId: string, subscriptionId: string) => Promise<AzureBuyer | null>;
  /** @default https://management.azure.com (locally: the simulated tenant's ARM) */
  readonly armEndpoint?: string;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function azureMarketplace(options: AzureMarketplaceOptions): Marketplace {
  const endpoint = (options.armEndpoint ?? 'https://management.azure.com').replace(/\/$/, '');
  return {
    async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
      checkPurchaseRequest(request);
      const { offer } = request;
      if (offer.provider !== 'azure') {
        throw new InvalidPurchaseRequest(`the azure marketplace buys Azure offers, not ${offer.provider}`);
      }
      if (isGuaranteedOffer(offer)) {
        return { status: 'manual', reason: 'guaranteed offers are fulfilled by an operator' };
      }
      const buyer = await options.buyerOf(request.orgId, request.accountId);
      if (!buyer) {
        return {
          status: 'failed',
          message: `organization ${request.orgId} has no Azure tenant whose administrator consented: there is no tenant to buy subscription ${request.accountId}'s commitment in (docs/onboarding.md)`,
          providerCode: 'NotOnboarded',
        };
      }
      let token: string;
      try {
        token = await options.armTokens(buyer.tenantId);
      } catch (error) {
        // A resumed attempt may have bought before: only ARM can say, so it is asked again later.
        if (request.earlierAttemptsSince) {
          throw new PurchaseOutcomeUnknown(`no ARM token for tenant ${buyer.tenantId}: ${String(error)}`);
        }
        // The identity platform refused the app: nothing was asked of ARM.
        return {
          status: 'failed',
          message: `the service's application cannot sign in to tenant ${buyer.tenantId}: ${error instanceof Error ? error.message : String(error)}; the tenant's administrator consents again (docs/onboarding.md)`,
          providerCode: error instanceof Error && error.name !== 'Error' ? error.name : 'SignInFailed',
        };
      }
      const arm: ArmRequester = {
        endpoint,
        token,
        fetch: options.fetch ?? fetch,
        sleep: options.sleep ?? wait,
      };
      const scope = { subscriptionId: request.accountId, single: buyer.single };
      return offer.scope.kind === 'spend'
        ? purchaseAzureSavingsPlan(arm, request, scope)
        : purchaseAzureReservation(arm, request, scope);
    },
  };
}

/**
 * One marketplace per provider: each purchase goes to its provider's, and a provider without one
 * to `otherwise` (the aws adapter answers Azure and GCP `manual`; the simulated one buys them).
 */
export function marketplaceByProvider(
  byProvider: Partial<Record<PurchaseRequest['provider'], Marketplace>>,
  otherwise: Marketplace,
): Marketplace {
  return {
    purchase: (request) => (byProvider[request.provider] ?? otherwise).purchase(request),
  };
}
