/**
 * AWS Savings Plans through the customer's role. `CreateSavingsPlan` takes a `clientToken`: the
 * same token answers the plan it created first, so a repeated call never buys a second plan. The
 * plan is also created with the client token as a tag (in the same call), which is how a resumed
 * request finds it before looking the offering up again: an offering no longer listed must not
 * turn a plan already bought into a `failed` line. A renewal is queued with `purchaseTime`: the
 * plan is created now, in state `queued`, and starts then.
 */
import {
  CreateSavingsPlanCommand,
  DescribeSavingsPlansCommand,
  DescribeSavingsPlansOfferingsCommand,
  type SavingsPlan,
  type SavingsPlanOfferingFilterElement,
  type SavingsPlanType,
  type SavingsplansClient,
} from '@aws-sdk/client-savingsplans';
import {
  InvalidPurchaseRequest,
  OfferingNotFound,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import { CLIENT_TOKEN_TAG } from './aws-ec2-reservations';
import { buy, isFailed, lookup, lookupEarlier } from './aws-provider-errors';
import { checkLimitPrice } from './offering-price';
import { savingsPlanCommitment } from './purchase-quantity';

/** Catalog plan type -> the Savings Plans API's. */
const PLAN_TYPES: Readonly<Record<string, SavingsPlanType>> = {
  ComputeSavingsPlans: 'Compute',
  EC2InstanceSavingsPlans: 'EC2Instance',
};

/** Region and family filters of a plan bought per region and family (EC2 Instance Savings Plans). */
function offeringFilters(
  request: PurchaseRequest,
  planType: SavingsPlanType,
): SavingsPlanOfferingFilterElement[] {
  if (planType !== 'EC2Instance' || request.offer.scope.kind !== 'spend') return [];
  const [rate] = request.offer.scope.rates;
  if (!rate?.region || !rate.family) {
    throw new InvalidPurchaseRequest(`offer ${request.offer.providerOfferingId} names no region and family`);
  }
  return [
    { name: 'region', values: [rate.region] },
    { name: 'instanceFamily', values: [rate.family] },
  ];
}

/** The upfront the payment option pays for the whole term: all of it, half of it, or none. */
function termUpfront(commitment: number, termHours: number, paymentOption: string): number {
  switch (paymentOption) {
    case 'All Upfront':
      return commitment * termHours;
    case 'Partial Upfront':
      return (commitment * termHours) / 2;
    default:
      return 0;
  }
}

/** The savings plan an earlier attempt created with this client token, found by its tag (every page). */
async function taggedSavingsPlan(
  savingsPlans: SavingsplansClient,
  clientToken: string,
): Promise<SavingsPlan | undefined> {
  let nextToken: string | undefined;
  do {
    const page = await lookupEarlier(
      () => savingsPlans.send(new DescribeSavingsPlansCommand({ ...(nextToken ? { nextToken } : {}) })),
      'savings plans tagged with the client token',
    );
    const found = page.savingsPlans?.find((plan) => plan.tags?.[CLIENT_TOKEN_TAG] === clientToken);
    if (found) return found;
    nextToken = page.nextToken;
  } while (nextToken);
  return undefined;
}

/** The answer for a plan an earlier attempt created: what it commits to, as the first answer said it. */
function earlierPlan(plan: SavingsPlan, termHours: number): PurchaseResult {
  if (plan.state === 'payment-failed') {
    return {
      status: 'failed',
      message: 'the provider could not take the payment for this savings plan',
      providerCode: 'payment-failed',
    };
  }
  const commitment = Number(plan.commitment ?? 0);
  const upfront = Number(plan.upfrontPaymentAmount ?? 0);
  return {
    status: 'completed',
    providerIds: [plan.savingsPlanId ?? ''],
    upfrontCost: upfront,
    recurringCost: commitment - upfront / termHours,
    providerQuantity: commitment,
    // A queued plan answers its start as the first answer did.
    ...(plan.state === 'queued' && plan.start ? { startsAt: new Date(plan.start).toISOString() } : {}),
  };
}

export async function purchaseSavingsPlan(
  savingsPlans: SavingsplansClient,
  request: PurchaseRequest,
): Promise<PurchaseResult> {
  const { offer } = request;
  const planType = PLAN_TYPES[offer.planType];
  if (!planType) throw new InvalidPurchaseRequest(`unknown savings plan type ${offer.planType}`);
  const commitmentText = savingsPlanCommitment(request.quantity);
  const commitment = Number(commitmentText);
  const filters = offeringFilters(request, planType);
  if (request.earlierAttemptsSince) {
    const earlier = await taggedSavingsPlan(savingsPlans, request.clientToken);
    if (earlier) return earlierPlan(earlier, offer.termHours);
  }

  const offerings = await lookup(() =>
    savingsPlans.send(
      new DescribeSavingsPlansOfferingsCommand({
        planTypes: [planType],
        paymentOptions: [offer.paymentOption],
        durations: [offer.termHours * 3600],
        currencies: ['USD'],
        ...(filters.length > 0 ? { filters } : {}),
      }),
    ),
  );
  if (isFailed(offerings)) return offerings;
  const offeringId = offerings.searchResults?.find(
    (found) => found.planType === planType && found.paymentOption === offer.paymentOption,
  )?.offeringId;
  if (!offeringId)
    throw new OfferingNotFound(`Savings Plans lists no offering matching ${offer.providerOfferingId}`);

  const planned = termUpfront(commitment, offer.termHours, offer.paymentOption);
  // One unit is $1/h of commitment: its price is the upfront share per dollar, and 1/h in all.
  checkLimitPrice(
    { upfront: planned / commitment, recurring: 1 - planned / commitment / offer.termHours },
    1,
    offer.termHours,
    request.limitPrice,
    offeringId,
  );
  // The API takes a Partial Upfront payment in whole dollars and at least half the term's total:
  // rounding up moves under $1 from the hourly charges to the upfront, so the limit is checked on
  // the unrounded half.
  const upfront = offer.paymentOption === 'Partial Upfront' ? Math.ceil(planned) : planned;

  const created = await buy(
    () =>
      savingsPlans.send(
        new CreateSavingsPlanCommand({
          savingsPlanOfferingId: offeringId,
          commitment: commitmentText,
          ...(offer.paymentOption === 'Partial Upfront' ? { upfrontPaymentAmount: String(upfront) } : {}),
          clientToken: request.clientToken,
          ...(request.startsAt ? { purchaseTime: new Date(request.startsAt) } : {}),
          tags: { [CLIENT_TOKEN_TAG]: request.clientToken },
        }),
      ),
    `savings plan ${offeringId}`,
  );
  if (isFailed(created)) return created;
  return {
    status: 'completed',
    providerIds: [created.savingsPlanId ?? ''],
    upfrontCost: upfront,
    recurringCost: commitment - upfront / offer.termHours,
    providerQuantity: commitment,
    ...(request.startsAt ? { startsAt: request.startsAt } : {}),
  };
}
