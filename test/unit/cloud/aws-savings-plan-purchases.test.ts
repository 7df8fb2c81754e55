import {
  CreateSavingsPlanCommand,
  DescribeSavingsPlansOfferingsCommand,
  type SavingsPlan,
  SavingsplansServiceException,
} from '@aws-sdk/client-savingsplans';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PriceAboveLimit } from '../../../shared/cloud/marketplace/marketplace';
import { marketplace, ONE_YEAR_SECONDS } from '../../support/aws-ec2-reservations';
import { computePlanPartial, instancePlan, mockSavingsPlans } from '../../support/aws-savings-plans';
import { purchaseRequest } from './marketplace-requests';

describe('AwsMarketplace: Savings Plans', () => {
  let plans: Map<string, SavingsPlan>;
  let savingsPlans: ReturnType<typeof mockSavingsPlans>;

  beforeEach(() => {
    plans = new Map();
    savingsPlans = mockSavingsPlans(plans);
  });
  afterEach(() => savingsPlans.restore());

  it('creates the plan with the client token, the $/h commitment and a whole-dollar half upfront', async () => {
    const request = purchaseRequest(computePlanPartial, 2.5);
    const result = await marketplace().purchase(request);
    // Partial Upfront: half of 2.5 $/h over 8760 h = 10950 upfront, the other half hourly
    expect(result).toEqual({
      status: 'completed',
      providerIds: ['sp-1'],
      upfrontCost: 10_950,
      recurringCost: 1.25,
      providerQuantity: 2.5,
    });
    expect(savingsPlans.commandCalls(CreateSavingsPlanCommand)[0]?.args[0].input).toMatchObject({
      savingsPlanOfferingId: `sp-offering-Compute-Partial Upfront-${ONE_YEAR_SECONDS}`,
      commitment: '2.5',
      upfrontPaymentAmount: '10950',
      clientToken: request.clientToken,
    });
  });

  it('after a crash between buying and recording, the same token answers the same plan', async () => {
    const request = purchaseRequest(computePlanPartial, 2.5);
    const first = await marketplace().purchase(request);
    const retry = await marketplace().purchase(request);
    expect(retry).toEqual(first);
    expect(plans.size).toBe(1);
  });

  it('answers a resumed request from the plan its earlier attempt created, even once the offering is no longer listed', async () => {
    // Prepare: another line's plan, then this line's; the process dies before recording this one
    const since = new Date().toISOString();
    await marketplace().purchase(purchaseRequest(computePlanPartial, 1, 'line-0'));
    const request = purchaseRequest(computePlanPartial, 2.5);
    const first = await marketplace().purchase(request);
    savingsPlans.on(DescribeSavingsPlansOfferingsCommand).resolves({ searchResults: [] });
    // Act
    const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
    // Assess: found by its tag, not bought again (nor refused as OfferingNotFound, which would record it failed)
    expect(retry).toEqual(first);
    expect(plans.size).toBe(2);
    expect(savingsPlans.commandCalls(CreateSavingsPlanCommand)).toHaveLength(2);
  });

  it('a resumed request whose earlier attempt created nothing buys the plan', async () => {
    // Prepare: another line's plan exists; this line's first attempt died before CreateSavingsPlan
    await marketplace().purchase(purchaseRequest(computePlanPartial, 1, 'line-0'));
    // Act
    const result = await marketplace().purchase({
      ...purchaseRequest(computePlanPartial, 2.5),
      earlierAttemptsSince: new Date().toISOString(),
    });
    // Assess
    expect(result).toMatchObject({ status: 'completed', providerIds: ['sp-2'], providerQuantity: 2.5 });
    expect(plans.size).toBe(2);
  });

  it('rounds a Partial Upfront payment up to whole dollars within the catalog limit', async () => {
    // Half of 0.12345 $/h over 8760 h is 540.711: the API takes 541, and the rest hourly
    const result = await marketplace().purchase(purchaseRequest(computePlanPartial, 0.12345));
    expect(savingsPlans.commandCalls(CreateSavingsPlanCommand)[0]?.args[0].input.upfrontPaymentAmount).toBe(
      '541',
    );
    expect(result).toMatchObject({ status: 'completed', upfrontCost: 541 });
    if (result.status !== 'completed') throw new Error('not completed');
    expect(result.upfrontCost + result.recurringCost * 8760).toBeCloseTo(0.12345 * 8760, 9);
  });

  it('cuts the commitment to five decimals, never rounding it up', async () => {
    await marketplace().purchase(purchaseRequest(instancePlan, 0.1234567));
    expect(savingsPlans.commandCalls(CreateSavingsPlanCommand)[0]?.args[0].input.commitment).toBe('0.12345');
  });

  it('looks up an EC2 Instance Savings Plan by its region and family', async () => {
    await marketplace().purchase(purchaseRequest(instancePlan, 1));
    const scope = instancePlan.scope.kind === 'spend' ? instancePlan.scope.rates[0] : undefined;
    expect(savingsPlans.commandCalls(DescribeSavingsPlansOfferingsCommand)[0]?.args[0].input).toMatchObject({
      planTypes: ['EC2Instance'],
      paymentOptions: ['No Upfront'],
      durations: [ONE_YEAR_SECONDS],
      filters: [
        { name: 'region', values: [scope?.region] },
        { name: 'instanceFamily', values: [scope?.family] },
      ],
    });
  });

  it('refuses a limit below the plan price', async () => {
    const request = purchaseRequest(computePlanPartial, 1, 'line-1', {
      limitPrice: { upfront: 4000, hourly: 1 },
    });
    await expect(marketplace().purchase(request)).rejects.toBeInstanceOf(PriceAboveLimit);
    expect(plans.size).toBe(0);
  });

  it("maps the provider's refusal to failed with its message", async () => {
    savingsPlans.on(CreateSavingsPlanCommand).rejects(
      new SavingsplansServiceException({
        name: 'ServiceQuotaExceededException',
        $fault: 'client',
        $metadata: {},
        message: 'Savings Plans quota reached',
      }),
    );
    expect(await marketplace().purchase(purchaseRequest(computePlanPartial, 1))).toEqual({
      status: 'failed',
      message: 'Savings Plans quota reached',
      providerCode: 'ServiceQuotaExceededException',
    });
  });
});
