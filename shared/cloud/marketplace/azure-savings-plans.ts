/**
 * Azure savings plans bought through `Microsoft.BillingBenefits` (docs/purchases.md, Azure): the
 * order alias is named by the client token, so every attempt PUTs the same alias and ARM answers
 * the savings plan order it made. An alias that exists is followed to its end; otherwise the
 * purchase is validated (`POST /providers/Microsoft.BillingBenefits/validate`), the alias PUT, and
 * the alias, then its order, polled until `Succeeded`.
 */
import {
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import { type ArmAnswer, ArmError, type ArmRequester, armGetOrNull, armRequest } from './azure-arm-requests';
import { type AzureScope, azureTerm, pollToEnd, provisioningState } from './azure-orders';
import { refusedBeforeBuying, refusedPurchase } from './azure-purchase-refusals';
import { savingsPlanCommitment } from './purchase-quantity';

export const billingBenefitsApiVersion = '2022-11-01';

/** The alias every attempt of the line item PUTs (ARM names: letters, digits, `_-.`). */
export function azureSavingsPlanAlias(clientToken: string): string {
  return `cps-${clientToken}`;
}

const failedStates = ['Failed', 'Cancelled', 'Expired'];

export async function purchaseAzureSavingsPlan(
  arm: ArmRequester,
  request: PurchaseRequest,
  scope: AzureScope,
): Promise<PurchaseResult> {
  const amount = Number(savingsPlanCommitment(request.quantity));
  const alias = azureSavingsPlanAlias(request.clientToken);
  const path = `/providers/Microsoft.BillingBenefits/savingsPlanOrderAliases/${alias}`;
  let existing: ArmAnswer | null;
  try {
    existing = await armGetOrNull(arm, path, billingBenefitsApiVersion);
  } catch (error) {
    if (request.earlierAttemptsSince) {
      throw new PurchaseOutcomeUnknown(
        `ARM would not show savings plan alias ${alias}, which an earlier attempt may have made`,
      );
    }
    if (error instanceof ArmError && refusedBeforeBuying(error)) {
      return refusedPurchase(error, `reading savings plan alias ${alias}`);
    }
    throw error;
  }
  if (existing) return finish(arm, path, request, null);

  const monthly = request.offer.paymentOption !== 'All Upfront';
  const body = {
    sku: { name: 'Compute_Savings_Plan' },
    properties: {
      displayName: `cps-${request.lineItemId}`.slice(0, 64),
      billingScopeId: `/subscriptions/${scope.subscriptionId}`,
      term: azureTerm(request.offer),
      // P1M: paid monthly; without a billing plan the term is paid up front.
      ...(monthly ? { billingPlan: 'P1M' } : {}),
      appliedScopeType: scope.single ? 'Single' : 'Shared',
      appliedScopeProperties: scope.single
        ? { subscriptionId: `/subscriptions/${scope.subscriptionId}` }
        : null,
      commitment: { grain: 'Hourly', currencyCode: 'USD', amount },
    },
  };
  try {
    const validation = await armRequest(arm, {
      method: 'POST',
      path: '/providers/Microsoft.BillingBenefits/validate',
      apiVersion: billingBenefitsApiVersion,
      body: { benefits: [body] },
    });
    const [verdict] = (validation.body.benefits ?? []) as {
      valid?: boolean;
      reasonCode?: string;
      reason?: string;
    }[];
    if (verdict && verdict.valid === false) {
      const code = verdict.reasonCode ?? 'ValidationFailed';
      return refusedPurchase(new ArmError(400, code, verdict.reason ?? code), 'the savings plan');
    }
  } catch (error) {
    if (error instanceof ArmError && refusedBeforeBuying(error)) {
      return refusedPurchase(error, 'validating the savings plan');
    }
    throw error;
  }
  let accepted: ArmAnswer;
  try {
    accepted = await armRequest(arm, { method: 'PUT', path, apiVersion: billingBenefitsApiVersion, body });
  } catch (error) {
    if (error instanceof ArmError && refusedBeforeBuying(error)) {
      return refusedPurchase(error, `savings plan alias ${alias}`);
    }
    throw new PurchaseOutcomeUnknown(`savings plan alias ${alias} was sent without a clear answer`);
  }
  return finish(arm, path, request, accepted.retryAfterSeconds);
}

async function finish(
  arm: ArmRequester,
  aliasPath: string,
  request: PurchaseRequest,
  firstWaitSeconds: number | null,
): Promise<PurchaseResult> {
  const alias = await pollToEnd(arm, {
    path: aliasPath,
    apiVersion: billingBenefitsApiVersion,
    firstWaitSeconds,
    failedStates,
  });
  const properties = (alias.body.properties ?? {}) as {
    provisioningState?: string;
    savingsPlanOrderId?: string;
    billingPlan?: string;
    commitment?: { amount?: number };
  };
  if (failedStates.includes(properties.provisioningState ?? '') || !properties.savingsPlanOrderId) {
    return {
      status: 'failed',
      message: `Azure ended savings plan alias ${aliasPath} ${properties.provisioningState}: nothing was bought; retry the purchase, or check the billing account in the Azure portal`,
      providerCode: 'OrderFailed',
    };
  }
  const order = await pollToEnd(arm, {
    path: properties.savingsPlanOrderId,
    apiVersion: billingBenefitsApiVersion,
    firstWaitSeconds: null,
    failedStates,
  });
  if (failedStates.includes(provisioningState(order.body))) {
    return {
      status: 'failed',
      message: `Azure ended savings plan order ${properties.savingsPlanOrderId} ${provisioningState(order.body)}: nothing was bought; retry the purchase`,
      providerCode: 'OrderFailed',
    };
  }
  const plans = ((order.body.properties ?? {}) as { savingsPlans?: string[] }).savingsPlans ?? [];
  const amount = properties.commitment?.amount ?? request.quantity;
  const monthly = properties.billingPlan === 'P1M';
  return {
    status: 'completed',
    providerIds: [properties.savingsPlanOrderId, ...plans],
    upfrontCost: monthly ? 0 : amount * request.offer.termHours,
    recurringCost: monthly ? amount : 0,
    providerQuantity: amount,
  };
}
