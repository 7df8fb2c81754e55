import {
  CreateSavingsPlanCommand,
  DescribeSavingsPlansCommand,
  DescribeSavingsPlansOfferingsCommand,
  type SavingsPlan,
  SavingsplansClient,
} from '@aws-sdk/client-savingsplans';
import { mockClient } from 'aws-sdk-client-mock';
import { catalogOffer } from '../unit/cloud/marketplace-requests';

/** Savings Plans as the aws marketplace tests meet them (test/unit/cloud/aws-savings-plan-purchases.test.ts). */

export const computePlanPartial = catalogOffer(
  (offer) =>
    offer.contractType === 'compute_plans' &&
    offer.provider === 'aws' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'Partial Upfront',
);
export const instancePlan = catalogOffer(
  (offer) =>
    offer.contractType === 'instance_plans' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'No Upfront',
);

/** Savings Plans as the mock keeps them: plans by the client token that created them. */
export function mockSavingsPlans(plans: Map<string, SavingsPlan>) {
  const savingsPlans = mockClient(SavingsplansClient);
  savingsPlans.on(DescribeSavingsPlansOfferingsCommand).callsFake((input) => ({
    searchResults: [
      {
        offeringId: `sp-offering-${input.planTypes?.[0]}-${input.paymentOptions?.[0]}-${input.durations?.[0]}`,
        planType: input.planTypes?.[0],
        paymentOption: input.paymentOptions?.[0],
        durationSeconds: input.durations?.[0],
        currency: 'USD',
      },
    ],
  }));
  savingsPlans.on(CreateSavingsPlanCommand).callsFake((input) => {
    // Savings Plans' idempotency: the same client token answers the plan it created.
    const earlier = plans.get(input.clientToken);
    if (earlier) return { savingsPlanId: earlier.savingsPlanId };
    const plan: SavingsPlan = {
      savingsPlanId: `sp-${plans.size + 1}`,
      commitment: input.commitment,
      offeringId: input.savingsPlanOfferingId,
      // The tests buy No and Partial Upfront plans: the upfront is what the request paid.
      upfrontPaymentAmount: input.upfrontPaymentAmount ?? '0',
      state: 'payment-pending',
      tags: input.tags,
    };
    plans.set(input.clientToken, plan);
    return { savingsPlanId: plan.savingsPlanId };
  });
  // One plan per page, so a lookup must follow the pages.
  savingsPlans.on(DescribeSavingsPlansCommand).callsFake((input) => {
    const all = [...plans.values()];
    const index = Number(input.nextToken ?? 0);
    return {
      savingsPlans: all.slice(index, index + 1),
      ...(index + 1 < all.length ? { nextToken: String(index + 1) } : {}),
    };
  });
  return savingsPlans;
}
