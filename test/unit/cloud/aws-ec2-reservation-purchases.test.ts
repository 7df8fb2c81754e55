import {
  CreateTagsCommand,
  PurchaseReservedInstancesOfferingCommand,
  type ReservedInstancesOffering,
} from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_TOKEN_TAG } from '../../../shared/cloud/marketplace/aws-ec2-reservations';
import {
  FractionalQuantity,
  InvalidPurchaseRequest,
  OfferingNotFound,
  PriceAboveLimit,
  PurchaseOutcomeUnknown,
} from '../../../shared/cloud/marketplace/marketplace';
import {
  type Ec2State,
  ec2Offering,
  ec2Refusal,
  ec2Selling,
  m5FamilyAllUpfront,
  m5LargeWindows,
  marketplace,
  mockEc2,
} from '../../support/aws-ec2-reservations';
import { catalogOffer, purchaseRequest } from './marketplace-requests';

describe('AwsMarketplace: EC2 reserved instances', () => {
  let state: Ec2State;
  let ec2: ReturnType<typeof mockEc2>;

  beforeEach(() => {
    state = ec2Selling();
    ec2 = mockEc2(state);
  });
  afterEach(() => ec2.restore());

  /** m5 family units bought as m5.xlarge (8 units each). */
  const asXlarge = (units: number, lineItemId = 'line-1') =>
    purchaseRequest(m5FamilyAllUpfront, units, lineItemId, { instanceType: 'm5.xlarge' });

  it('buys normalized units as whole instances of the named size from the regional offering', async () => {
    // Act: 48 units of m5 as m5.xlarge (8 units each) = 6 instances
    const result = await marketplace().purchase(asXlarge(48));
    // Assess
    expect(result).toEqual({
      status: 'completed',
      providerIds: ['ri-1'],
      upfrontCost: 6 * 8 * m5FamilyAllUpfront.upfront,
      recurringCost: 0,
      providerQuantity: 6,
    });
    const [purchase] = ec2.commandCalls(PurchaseReservedInstancesOfferingCommand);
    expect(purchase?.args[0].input).toEqual({
      ReservedInstancesOfferingId: 'm5.xlarge-regional-All Upfront',
      InstanceCount: 6,
      LimitPrice: { Amount: 48 * m5FamilyAllUpfront.upfront, CurrencyCode: 'USD' },
    });
    expect(state.reservations[0]?.Tags).toEqual([
      { Key: CLIENT_TOKEN_TAG, Value: purchaseRequest(m5FamilyAllUpfront, 48).clientToken },
    ]);
  });

  it('buys a second line item of the same offer as its own reservation', async () => {
    await marketplace().purchase(asXlarge(8, 'line-1'));
    await marketplace().purchase(asXlarge(8, 'line-2'));
    expect(state.reservations).toHaveLength(2);
  });

  it('buys an exact offer by instance count, with its recurring charge', async () => {
    const result = await marketplace().purchase(purchaseRequest(m5LargeWindows, 3));
    expect(result).toMatchObject({ status: 'completed', providerQuantity: 3 });
    if (result.status !== 'completed') throw new Error('not completed');
    expect(result.upfrontCost).toBeCloseTo(3 * m5LargeWindows.upfront, 9);
    expect(result.recurringCost).toBeCloseTo(3 * m5LargeWindows.recurring, 9);
  });

  it('sends no upfront limit for a No Upfront order, which has no upfront', async () => {
    const noUpfront = catalogOffer(
      (offer) =>
        offer.provider === 'aws' &&
        offer.contractType === 'standard_ris' &&
        offer.scope.kind === 'family' &&
        offer.scope.family === 'm5' &&
        offer.term === 'one_year' &&
        offer.paymentOption === 'No Upfront',
    );
    state.offerings.push(ec2Offering(noUpfront, 'm5.xlarge', 8, 'Region'));
    const result = await marketplace().purchase(
      purchaseRequest(noUpfront, 16, 'line-1', { instanceType: 'm5.xlarge' }),
    );
    expect(result).toMatchObject({ status: 'completed', upfrontCost: 0, providerQuantity: 2 });
    expect(
      ec2.commandCalls(PurchaseReservedInstancesOfferingCommand)[0]?.args[0].input.LimitPrice,
    ).toBeUndefined();
  });

  it.each([
    {
      refusal: 'units that are not a whole number of instances of the size (12 units: 1.5 m5.xlarge)',
      request: () => asXlarge(12),
      error: FractionalQuantity,
    },
    {
      refusal: 'a size-flexible purchase without a size',
      request: () => purchaseRequest(m5FamilyAllUpfront, 8),
      error: InvalidPurchaseRequest,
    },
    {
      refusal: 'a size-flexible purchase with a size of another family',
      request: () => purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'c5.xlarge' }),
      error: InvalidPurchaseRequest,
    },
    {
      refusal: "an offering whose price rose above the limit (1% above the catalog's)",
      arrange: (selling: Ec2State) => {
        const regional = selling.offerings[1] as ReservedInstancesOffering;
        regional.FixedPrice = (regional.FixedPrice ?? 0) * 1.01;
      },
      request: () => asXlarge(8),
      error: PriceAboveLimit,
    },
    {
      refusal: 'an order EC2 lists only zonal offerings for',
      arrange: (selling: Ec2State) => {
        selling.offerings = selling.offerings.filter((offering) => offering.Scope !== 'Region');
      },
      request: () => asXlarge(8),
      error: OfferingNotFound,
    },
  ])('refuses $refusal with its typed error, and buys nothing', async ({ arrange, request, error }) => {
    // Prepare
    arrange?.(state);
    // Act
    const refused = marketplace().purchase(request());
    // Assess
    await expect(refused).rejects.toBeInstanceOf(error);
    await expect(refused).rejects.toMatchObject({ code: error.code });
    expect(state.purchaseCalls).toBe(0);
    expect(ec2.commandCalls(PurchaseReservedInstancesOfferingCommand)).toHaveLength(0);
  });

  it("maps the provider's refusal of the purchase to failed with its message", async () => {
    ec2
      .on(PurchaseReservedInstancesOfferingCommand)
      .rejects(
        ec2Refusal('ReservedInstancesLimitExceeded', 'You have reached the limit of reserved instances'),
      );
    const result = await marketplace().purchase(asXlarge(8));
    expect(result).toEqual({
      status: 'failed',
      message: 'You have reached the limit of reserved instances',
      providerCode: 'ReservedInstancesLimitExceeded',
    });
  });

  it('never reports failed when the buy call ends without an answer', async () => {
    ec2.on(PurchaseReservedInstancesOfferingCommand).rejects(new Error('socket hang up'));
    await expect(marketplace().purchase(asXlarge(8))).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
  });

  it('reports the purchase completed when only the tagging after it fails', async () => {
    ec2.on(CreateTagsCommand).rejects(ec2Refusal('RequestLimitExceeded', 'slow down'));
    const result = await marketplace().purchase(asXlarge(8));
    expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-1'] });
  });
});
