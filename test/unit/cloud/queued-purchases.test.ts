/**
 * Renewals bought ahead of their start (docs/purchases.md, Renewals): the AWS adapter queues a
 * Savings Plan with `purchaseTime` and a regional EC2 reservation with `PurchaseTime`; RDS has no
 * queued purchase, so a request to queue one is refused before anything is called. The simulated
 * marketplace does the same. The wire checks read the commands the adapter sends.
 */
import {
  CreateTagsCommand,
  DescribeReservedInstancesCommand,
  DescribeReservedInstancesOfferingsCommand,
  EC2Client,
  PurchaseReservedInstancesOfferingCommand,
  type ReservedInstances,
} from '@aws-sdk/client-ec2';
import { PurchaseReservedDBInstancesOfferingCommand, RDSClient } from '@aws-sdk/client-rds';
import {
  CreateSavingsPlanCommand,
  DescribeSavingsPlansCommand,
  DescribeSavingsPlansOfferingsCommand,
  type SavingsPlan,
  SavingsplansClient,
} from '@aws-sdk/client-savingsplans';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLIENT_TOKEN_TAG } from '../../../shared/cloud/marketplace/aws-ec2-reservations';
import { AwsMarketplace } from '../../../shared/cloud/marketplace/aws-marketplace';
import { InvalidPurchaseRequest, queuesPurchase } from '../../../shared/cloud/marketplace/marketplace';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { catalogOffer, purchaseRequest } from './marketplace-requests';

const ONE_YEAR_SECONDS = 31_536_000;
const STARTS_AT = '2027-01-20T00:00:00.000Z';

const m5Large = catalogOffer(
  (offer) =>
    offer.provider === 'aws' &&
    offer.contractType === 'standard_ris' &&
    offer.scope.kind === 'instance' &&
    offer.scope.instanceType === 'm5.large' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'No Upfront',
);
const computePlan = catalogOffer(
  (offer) =>
    offer.provider === 'aws' &&
    offer.contractType === 'compute_plans' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'No Upfront',
);
const dbFamily = catalogOffer(
  (offer) => offer.contractType === 'db_ris' && offer.scope.kind === 'family' && offer.term === 'one_year',
);
const leased = catalogOffer((offer) => offer.provider === 'aws' && offer.contractType.startsWith('leased_'));
const azure = catalogOffer((offer) => offer.provider === 'azure');

const marketplace = () =>
  new AwsMarketplace({ roleArn: 'arn:aws:iam::123456789012:role/purchases', externalId: 'ext-1' });

describe('queuesPurchase', () => {
  it('answers true for AWS Savings Plans and EC2 reservations, false for RDS, leases and other providers', () => {
    expect(queuesPurchase(computePlan)).toBe(true);
    expect(queuesPurchase(m5Large)).toBe(true);
    expect(queuesPurchase(dbFamily)).toBe(false);
    expect(queuesPurchase(leased)).toBe(false);
    expect(queuesPurchase(azure)).toBe(false);
  });
});

describe('AwsMarketplace: queued Savings Plan', () => {
  const savingsPlans = mockClient(SavingsplansClient);
  afterEach(() => savingsPlans.reset());
  afterAll(() => savingsPlans.restore());

  it('sends purchaseTime and answers the start; a resumed request answers the queued plan again', async () => {
    // Prepare: Savings Plans keeps the queued plan, tagged, in state `queued` until its start.
    const plans: SavingsPlan[] = [];
    savingsPlans.on(DescribeSavingsPlansOfferingsCommand).resolves({
      searchResults: [{ offeringId: 'sp-offering', planType: 'Compute', paymentOption: 'No Upfront' }],
    });
    savingsPlans.on(CreateSavingsPlanCommand).callsFake((input) => {
      plans.push({
        savingsPlanId: 'sp-1',
        commitment: input.commitment,
        upfrontPaymentAmount: '0',
        state: 'queued',
        start: input.purchaseTime?.toISOString(),
        tags: input.tags,
      });
      return { savingsPlanId: 'sp-1' };
    });
    savingsPlans.on(DescribeSavingsPlansCommand).callsFake(() => ({ savingsPlans: plans }));
    const request = purchaseRequest(computePlan, 2, 'line-1', { startsAt: STARTS_AT });

    // Act
    const first = await marketplace().purchase(request);
    const resumed = await marketplace().purchase({
      ...request,
      earlierAttemptsSince: '2026-12-01T00:00:00Z',
    });

    // Assess
    const [create] = savingsPlans.commandCalls(CreateSavingsPlanCommand);
    expect(create?.args[0].input).toMatchObject({
      savingsPlanOfferingId: 'sp-offering',
      commitment: '2',
      clientToken: request.clientToken,
      purchaseTime: new Date(STARTS_AT),
    });
    expect(first).toEqual({
      status: 'completed',
      providerIds: ['sp-1'],
      upfrontCost: 0,
      recurringCost: 2,
      providerQuantity: 2,
      startsAt: STARTS_AT,
    });
    expect(resumed).toEqual(first);
    expect(savingsPlans.commandCalls(CreateSavingsPlanCommand)).toHaveLength(1);
  });

  it('sends no purchaseTime for a purchase that starts now', async () => {
    // Prepare
    savingsPlans.on(DescribeSavingsPlansOfferingsCommand).resolves({
      searchResults: [{ offeringId: 'sp-offering', planType: 'Compute', paymentOption: 'No Upfront' }],
    });
    savingsPlans.on(CreateSavingsPlanCommand).resolves({ savingsPlanId: 'sp-1' });

    // Act
    const result = await marketplace().purchase(purchaseRequest(computePlan, 2));

    // Assess
    const [create] = savingsPlans.commandCalls(CreateSavingsPlanCommand);
    expect(create?.args[0].input).not.toHaveProperty('purchaseTime');
    expect(result).not.toHaveProperty('startsAt');
  });
});

describe('AwsMarketplace: queued EC2 reservation', () => {
  const ec2 = mockClient(EC2Client);
  afterEach(() => ec2.reset());
  afterAll(() => ec2.restore());

  it('sends PurchaseTime; a resumed request finds the queued reservation by its tag and buys nothing more', async () => {
    // Prepare: EC2 keeps the queued reservation in state `queued`, starting at PurchaseTime.
    const reservations: ReservedInstances[] = [];
    ec2.on(DescribeReservedInstancesOfferingsCommand).resolves({
      ReservedInstancesOfferings: [
        {
          ReservedInstancesOfferingId: 'm5-large-regional',
          InstanceType: 'm5.large',
          Duration: ONE_YEAR_SECONDS,
          FixedPrice: 0,
          UsagePrice: 0,
          RecurringCharges: [{ Amount: m5Large.recurring, Frequency: 'Hourly' }],
          ProductDescription: m5Large.productDescription as never,
          OfferingClass: 'standard',
          OfferingType: 'No Upfront',
          InstanceTenancy: 'default',
          CurrencyCode: 'USD',
          Marketplace: false,
          Scope: 'Region',
        },
      ],
    });
    ec2.on(PurchaseReservedInstancesOfferingCommand).callsFake((input) => {
      reservations.push({
        ReservedInstancesId: 'ri-1',
        InstanceCount: input.InstanceCount,
        FixedPrice: 0,
        UsagePrice: 0,
        RecurringCharges: [{ Amount: m5Large.recurring, Frequency: 'Hourly' }],
        State: 'queued',
        Start: input.PurchaseTime,
        Tags: [],
      });
      return { ReservedInstancesId: 'ri-1' };
    });
    ec2.on(CreateTagsCommand).callsFake((input) => {
      for (const reservation of reservations) reservation.Tags?.push(...input.Tags);
      return {};
    });
    ec2.on(DescribeReservedInstancesCommand).callsFake((input) => ({
      ReservedInstances: reservations.filter((reservation) =>
        (reservation.Tags ?? []).some(
          (tag) => tag.Key === CLIENT_TOKEN_TAG && input.Filters?.[0]?.Values?.includes(tag.Value),
        ),
      ),
    }));
    const request = purchaseRequest(m5Large, 3, 'line-1', { startsAt: STARTS_AT });

    // Act
    const first = await marketplace().purchase(request);
    const resumed = await marketplace().purchase({
      ...request,
      earlierAttemptsSince: '2026-12-01T00:00:00Z',
    });

    // Assess
    expect(ec2.commandCalls(PurchaseReservedInstancesOfferingCommand)[0]?.args[0].input).toEqual({
      ReservedInstancesOfferingId: 'm5-large-regional',
      InstanceCount: 3,
      PurchaseTime: new Date(STARTS_AT),
    });
    expect(first).toMatchObject({
      status: 'completed',
      providerIds: ['ri-1'],
      providerQuantity: 3,
      startsAt: STARTS_AT,
    });
    expect(resumed).toEqual(first);
    expect(ec2.commandCalls(PurchaseReservedInstancesOfferingCommand)).toHaveLength(1);
  });

  it('answers failed, not completed, for a queued reservation deleted before it started', async () => {
    // Prepare: the earlier attempt's queued reservation, since deleted.
    const request = purchaseRequest(m5Large, 3, 'line-1', { startsAt: STARTS_AT });
    ec2.on(DescribeReservedInstancesCommand).resolves({
      ReservedInstances: [
        {
          ReservedInstancesId: 'ri-1',
          InstanceCount: 3,
          State: 'queued-deleted',
          Tags: [{ Key: CLIENT_TOKEN_TAG, Value: request.clientToken }],
        },
      ],
    });

    // Act
    const result = await marketplace().purchase(request);

    // Assess
    expect(result).toMatchObject({ status: 'failed', providerCode: 'queued-deleted' });
    expect(ec2.commandCalls(PurchaseReservedInstancesOfferingCommand)).toHaveLength(0);
  });
});

describe('a purchase the provider cannot queue', () => {
  const rds = mockClient(RDSClient);
  afterEach(() => rds.reset());
  afterAll(() => rds.restore());

  it('is refused before any call (AWS RDS) and by the simulated marketplace, buying nothing', async () => {
    // Prepare
    const request = purchaseRequest(dbFamily, 4, 'line-1', {
      startsAt: STARTS_AT,
      instanceType: 'db.m5.large',
    });
    const simulated = new SimulatedMarketplace();

    // Act, Assess
    await expect(marketplace().purchase(request)).rejects.toThrow(InvalidPurchaseRequest);
    await expect(simulated.purchase(request)).rejects.toThrow(InvalidPurchaseRequest);
    expect(rds.commandCalls(PurchaseReservedDBInstancesOfferingCommand)).toHaveLength(0);
    expect(simulated.purchases()).toHaveLength(0);
  });

  it('refuses a start time that is not an ISO 8601 time', async () => {
    await expect(
      new SimulatedMarketplace().purchase(purchaseRequest(computePlan, 1, 'line-1', { startsAt: 'soon' })),
    ).rejects.toThrow(InvalidPurchaseRequest);
  });
});

describe('SimulatedMarketplace: queued purchase', () => {
  it('records the start of a queued purchase and answers it again for the same client token', async () => {
    // Prepare
    const simulated = new SimulatedMarketplace();
    const request = purchaseRequest(computePlan, 2, 'line-1', { startsAt: STARTS_AT });

    // Act
    const first = await simulated.purchase(request);
    const repeat = await simulated.purchase(request);

    // Assess
    expect(first).toMatchObject({ status: 'completed', providerQuantity: 2, startsAt: STARTS_AT });
    expect(repeat).toEqual(first);
    expect(simulated.purchases()).toHaveLength(1);
  });
});
