import {
  CreateTagsCommand,
  DescribeReservedInstancesCommand,
  DescribeReservedInstancesOfferingsCommand,
  EC2Client,
  EC2ServiceException,
  type Filter,
  PurchaseReservedInstancesOfferingCommand,
  type ReservedInstances,
  type ReservedInstancesOffering,
} from '@aws-sdk/client-ec2';
import {
  DescribeReservedDBInstancesCommand,
  DescribeReservedDBInstancesOfferingsCommand,
  PurchaseReservedDBInstancesOfferingCommand,
  RDSClient,
  RDSServiceException,
  type ReservedDBInstance,
  ReservedDBInstanceAlreadyExistsFault,
  ReservedDBInstanceNotFoundFault,
  type ReservedDBInstancesOffering,
} from '@aws-sdk/client-rds';
import {
  CreateSavingsPlanCommand,
  DescribeSavingsPlansCommand,
  DescribeSavingsPlansOfferingsCommand,
  type SavingsPlan,
  SavingsplansClient,
  SavingsplansServiceException,
} from '@aws-sdk/client-savingsplans';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_TOKEN_TAG } from '../../../shared/cloud/marketplace/aws-ec2-reservations';
import { AwsMarketplace } from '../../../shared/cloud/marketplace/aws-marketplace';
import { reservedDbInstanceId } from '../../../shared/cloud/marketplace/aws-rds-reservations';
import {
  AmbiguousEarlierPurchase,
  FractionalQuantity,
  InvalidPurchaseRequest,
  OfferingNotFound,
  PriceAboveLimit,
  PurchaseOutcomeUnknown,
} from '../../../shared/cloud/marketplace/marketplace';
import type { Offer } from '../../../shared/domain/engine/shapes/model';
import { catalogOffer, purchaseRequest } from './marketplace-requests';

const ONE_YEAR_SECONDS = 31_536_000;

const m5FamilyAllUpfront = catalogOffer(
  (offer) =>
    offer.provider === 'aws' &&
    offer.contractType === 'standard_ris' &&
    offer.scope.kind === 'family' &&
    offer.scope.family === 'm5' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'All Upfront',
);
const m5LargeWindows = catalogOffer(
  (offer) =>
    offer.provider === 'aws' &&
    offer.contractType === 'convertible_ris' &&
    offer.scope.kind === 'instance' &&
    offer.scope.instanceType === 'm5.large' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'Partial Upfront',
);
const dbM5Family = catalogOffer(
  (offer) =>
    offer.contractType === 'db_ris' &&
    offer.scope.kind === 'family' &&
    offer.scope.family === 'db.m5' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'All Upfront',
);
const computePlanPartial = catalogOffer(
  (offer) =>
    offer.contractType === 'compute_plans' &&
    offer.provider === 'aws' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'Partial Upfront',
);
const instancePlan = catalogOffer(
  (offer) =>
    offer.contractType === 'instance_plans' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'No Upfront',
);

/** EC2 as the mock keeps it: the offerings it lists and the reservations it sold. */
interface Ec2State {
  offerings: ReservedInstancesOffering[];
  reservations: ReservedInstances[];
  purchaseCalls: number;
  /** The next purchase is made but its answer never reaches the caller. */
  answerLost?: boolean;
  /** The next CreateTags never happens: the caller died after buying. */
  diesBeforeTagging?: boolean;
}

/** A reservation of `count` instances bought from the offering at `start`, untagged. */
function reservationOf(offering: ReservedInstancesOffering, count: number, start: Date): ReservedInstances {
  return {
    ReservedInstancesId: `ri-${offering.ReservedInstancesOfferingId}-${start.toISOString()}`,
    InstanceType: offering.InstanceType,
    InstanceCount: count,
    ProductDescription: offering.ProductDescription,
    OfferingClass: offering.OfferingClass,
    OfferingType: offering.OfferingType,
    InstanceTenancy: offering.InstanceTenancy,
    Duration: offering.Duration,
    Scope: offering.Scope,
    FixedPrice: offering.FixedPrice,
    UsagePrice: offering.UsagePrice,
    RecurringCharges: offering.RecurringCharges,
    CurrencyCode: 'USD',
    State: 'active',
    Start: start,
    Tags: [],
  };
}

/** DescribeReservedInstances' filters, as EC2 applies them (the ones the adapter sends). */
function matchesFilter(reservation: ReservedInstances, filter: Filter): boolean {
  const values = filter.Values ?? [];
  const name = filter.Name ?? '';
  if (name.startsWith('tag:')) {
    const key = name.slice('tag:'.length);
    return (reservation.Tags ?? []).some((tag) => tag.Key === key && values.includes(tag.Value ?? ''));
  }
  const field: Record<string, unknown> = {
    'instance-type': reservation.InstanceType,
    'product-description': reservation.ProductDescription,
    duration: String(reservation.Duration),
    scope: reservation.Scope,
    state: reservation.State,
  };
  if (!(name in field)) throw new Error(`the EC2 mock knows no filter ${name}`);
  return values.includes(String(field[name]));
}

const marketplace = () =>
  new AwsMarketplace({ roleArn: 'arn:aws:iam::123456789012:role/purchases', externalId: 'ext-1' });

/** An EC2 offering priced per instance at the catalog's per-unit price times the size's units. */
function ec2Offering(
  offer: Offer,
  instanceType: string,
  units: number,
  scope: 'Region' | 'Availability Zone',
): ReservedInstancesOffering {
  return {
    ReservedInstancesOfferingId: `${instanceType}-${scope === 'Region' ? 'regional' : 'zonal'}-${offer.paymentOption}`,
    InstanceType: instanceType as never,
    Duration: ONE_YEAR_SECONDS,
    FixedPrice: offer.upfront * units,
    UsagePrice: 0,
    RecurringCharges: offer.recurring > 0 ? [{ Amount: offer.recurring * units, Frequency: 'Hourly' }] : [],
    ProductDescription: offer.productDescription as never,
    OfferingClass: offer.offeringClass as never,
    OfferingType: offer.paymentOption,
    InstanceTenancy: 'default',
    CurrencyCode: 'USD',
    Marketplace: false,
    Scope: scope,
  };
}

function mockEc2(state: Ec2State) {
  const ec2 = mockClient(EC2Client);
  ec2.on(DescribeReservedInstancesOfferingsCommand).callsFake((input) => ({
    ReservedInstancesOfferings: state.offerings.filter(
      (offering) =>
        offering.InstanceType === input.InstanceType &&
        offering.OfferingType === input.OfferingType &&
        offering.OfferingClass === input.OfferingClass &&
        offering.ProductDescription === input.ProductDescription &&
        (offering.Duration ?? 0) >= (input.MinDuration ?? 0) &&
        (offering.Duration ?? 0) <= (input.MaxDuration ?? Number.POSITIVE_INFINITY),
    ),
  }));
  ec2.on(DescribeReservedInstancesCommand).callsFake((input) => ({
    ReservedInstances: state.reservations.filter(
      (reservation) =>
        (input.OfferingClass === undefined || reservation.OfferingClass === input.OfferingClass) &&
        (input.OfferingType === undefined || reservation.OfferingType === input.OfferingType) &&
        (input.Filters ?? []).every((filter: Filter) => matchesFilter(reservation, filter)),
    ),
  }));
  ec2.on(PurchaseReservedInstancesOfferingCommand).callsFake((input) => {
    state.purchaseCalls += 1;
    const offering = state.offerings.find(
      (candidate) => candidate.ReservedInstancesOfferingId === input.ReservedInstancesOfferingId,
    );
    if (!offering) {
      throw new EC2ServiceException({
        name: 'InvalidReservedInstancesOfferingId',
        $fault: 'client',
        $metadata: {},
        message: 'no such offering',
      });
    }
    const total = (offering.FixedPrice ?? 0) * input.InstanceCount;
    if (input.LimitPrice && total > input.LimitPrice.Amount) {
      throw new EC2ServiceException({
        name: 'ReservedInstancesLimitPriceExceeded',
        $fault: 'client',
        $metadata: {},
        message: 'limit price exceeded',
      });
    }
    const id = `ri-${state.reservations.length + 1}`;
    state.reservations.push({
      ...reservationOf(offering, input.InstanceCount, new Date()),
      ReservedInstancesId: id,
    });
    if (state.answerLost) {
      state.answerLost = false;
      throw new Error('socket hang up');
    }
    return { ReservedInstancesId: id };
  });
  ec2.on(CreateTagsCommand).callsFake((input) => {
    if (state.diesBeforeTagging) {
      state.diesBeforeTagging = false;
      throw new Error('the process died before tagging');
    }
    for (const reservation of state.reservations) {
      if (input.Resources.includes(reservation.ReservedInstancesId)) reservation.Tags?.push(...input.Tags);
    }
    return {};
  });
  return ec2;
}

describe('AwsMarketplace: EC2 reserved instances', () => {
  let state: Ec2State;
  let ec2: ReturnType<typeof mockEc2>;

  beforeEach(() => {
    state = {
      offerings: [
        ec2Offering(m5FamilyAllUpfront, 'm5.xlarge', 8, 'Availability Zone'),
        ec2Offering(m5FamilyAllUpfront, 'm5.xlarge', 8, 'Region'),
        ec2Offering(m5LargeWindows, 'm5.large', 1, 'Region'),
      ],
      reservations: [],
      purchaseCalls: 0,
    };
    ec2 = mockEc2(state);
  });
  afterEach(() => ec2.restore());

  it('buys normalized units as whole instances of the named size from the regional offering', async () => {
    // Act: 48 units of m5 as m5.xlarge (8 units each) = 6 instances
    const result = await marketplace().purchase(
      purchaseRequest(m5FamilyAllUpfront, 48, 'line-1', { instanceType: 'm5.xlarge' }),
    );
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

  it('after a crash between buying and recording, the resumed request finds the tagged reservation and buys nothing more', async () => {
    // Prepare: the first attempt buys and tags, then its process dies before recording the answer
    const since = new Date().toISOString();
    const request = purchaseRequest(m5FamilyAllUpfront, 48, 'line-1', { instanceType: 'm5.xlarge' });
    const first = await marketplace().purchase(request);
    // Act
    const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
    // Assess
    expect(retry).toEqual(first);
    expect(state.reservations).toHaveLength(1);
    expect(state.purchaseCalls).toBe(1);
  });

  describe('a resumed request whose earlier attempt may have bought without tagging', () => {
    const request = purchaseRequest(m5FamilyAllUpfront, 48, 'line-1', { instanceType: 'm5.xlarge' });
    const token = request.clientToken;
    /** The regional m5.xlarge offering the requests above buy from. */
    const regional = () => state.offerings[1] as ReservedInstancesOffering;
    const tagsOf = (id: string | undefined) =>
      state.reservations.find((reservation) => reservation.ReservedInstancesId === id)?.Tags;

    it('adopts the untagged reservation left by a crash between the purchase and CreateTags, tags it and buys nothing', async () => {
      // Prepare: the first attempt buys, then dies before CreateTags (its answer never recorded)
      const since = new Date().toISOString();
      state.diesBeforeTagging = true;
      await marketplace().purchase(request);
      expect(state.reservations[0]?.Tags).toEqual([]);
      // Act
      const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
      // Assess
      expect(retry).toEqual({
        status: 'completed',
        providerIds: ['ri-1'],
        upfrontCost: 6 * 8 * m5FamilyAllUpfront.upfront,
        recurringCost: 0,
        providerQuantity: 6,
      });
      expect(state.reservations).toHaveLength(1);
      expect(state.purchaseCalls).toBe(1);
      expect(tagsOf('ri-1')).toEqual([{ Key: CLIENT_TOKEN_TAG, Value: token }]);
      // A later repeat finds it by its tag alone
      expect(await marketplace().purchase({ ...request, earlierAttemptsSince: since })).toEqual(retry);
      expect(state.purchaseCalls).toBe(1);
    });

    it('adopts the reservation a buy call made whose answer was lost', async () => {
      // Prepare: EC2 buys, the answer never arrives: the outcome is unknown to the first attempt
      const since = new Date().toISOString();
      state.answerLost = true;
      await expect(marketplace().purchase(request)).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      // Act
      const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
      // Assess
      expect(retry).toMatchObject({ status: 'completed', providerIds: ['ri-1'], providerQuantity: 6 });
      expect(state.reservations).toHaveLength(1);
      expect(tagsOf('ri-1')).toEqual([{ Key: CLIENT_TOKEN_TAG, Value: token }]);
    });

    it('refuses to choose between two untagged reservations of the order: a typed error for an operator, nothing bought or tagged', async () => {
      // Prepare: two untagged reservations of the same order started since the first attempt
      const since = new Date(Date.now() - 60_000);
      state.reservations.push(
        { ...reservationOf(regional(), 6, new Date(since.getTime() + 1_000)), ReservedInstancesId: 'ri-a' },
        { ...reservationOf(regional(), 6, new Date(since.getTime() + 2_000)), ReservedInstancesId: 'ri-b' },
      );
      // Act
      const attempt = marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() });
      // Assess
      await expect(attempt).rejects.toBeInstanceOf(AmbiguousEarlierPurchase);
      await expect(attempt).rejects.toMatchObject({
        code: 'ERR_MARKETPLACE_AMBIGUOUS_EARLIER_PURCHASE',
        candidates: ['ri-a', 'ri-b'],
      });
      // The processor records no PurchaseOutcomeUnknown as failed
      await expect(attempt).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      expect(state.purchaseCalls).toBe(0);
      expect(state.reservations).toHaveLength(2);
      expect(ec2.commandCalls(CreateTagsCommand)).toHaveLength(0);
    });

    it('buys once an operator has set the foreign candidates aside with another value of the tag', async () => {
      // Prepare: the two candidates above, both marked by an operator as not this line item's
      const since = new Date(Date.now() - 60_000);
      for (const id of ['ri-a', 'ri-b']) {
        state.reservations.push({
          ...reservationOf(regional(), 6, new Date(since.getTime() + 1_000)),
          ReservedInstancesId: id,
          Tags: [{ Key: CLIENT_TOKEN_TAG, Value: 'not-a-line-item' }],
        });
      }
      // Act
      const result = await marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() });
      // Assess
      expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-3'] });
      expect(state.purchaseCalls).toBe(1);
    });

    it('ignores untagged reservations started before the first attempt, or of another count', async () => {
      // Prepare: the customer's own purchases of the same type: one a minute before, one of 5 instances
      const since = new Date();
      state.reservations.push(
        {
          ...reservationOf(regional(), 6, new Date(since.getTime() - 60_000)),
          ReservedInstancesId: 'ri-old',
        },
        {
          ...reservationOf(regional(), 5, new Date(since.getTime() + 1_000)),
          ReservedInstancesId: 'ri-five',
        },
      );
      // Act
      const result = await marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() });
      // Assess: the earlier attempt bought nothing, so this one buys
      expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-3'], providerQuantity: 6 });
      expect(state.purchaseCalls).toBe(1);
      expect(tagsOf('ri-old')).toEqual([]);
      expect(tagsOf('ri-five')).toEqual([]);
    });

    it("never adopts someone else's untagged reservation on a first attempt: without earlierAttemptsSince it buys", async () => {
      // Prepare: an untagged reservation of the very order, bought by the customer just now
      state.reservations.push({
        ...reservationOf(regional(), 6, new Date()),
        ReservedInstancesId: 'ri-theirs',
      });
      // Act
      const result = await marketplace().purchase(request);
      // Assess
      expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-2'] });
      expect(state.purchaseCalls).toBe(1);
      expect(state.reservations).toHaveLength(2);
      expect(tagsOf('ri-theirs')).toEqual([]);
      expect(tagsOf('ri-2')).toEqual([{ Key: CLIENT_TOKEN_TAG, Value: token }]);
    });

    it('leaves the outcome unknown when the adopted reservation cannot be tagged', async () => {
      // Prepare: the reservation of a crashed attempt; EC2 then refuses the tag
      const since = new Date(Date.now() - 60_000);
      state.reservations.push({
        ...reservationOf(regional(), 6, new Date()),
        ReservedInstancesId: 'ri-crashed',
      });
      ec2.on(CreateTagsCommand).rejects(
        new EC2ServiceException({
          name: 'RequestLimitExceeded',
          $fault: 'client',
          $metadata: {},
          message: 'slow down',
        }),
      );
      // Act / Assess: untagged, it could be answered to another line item too, so nothing is settled
      await expect(
        marketplace().purchase({ ...request, earlierAttemptsSince: since.toISOString() }),
      ).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      expect(state.purchaseCalls).toBe(0);
    });

    it('never answers failed when the lookup of the earlier purchase is refused', async () => {
      // Prepare: EC2 throttles DescribeReservedInstances (a client fault)
      ec2.on(DescribeReservedInstancesCommand).rejects(
        new EC2ServiceException({
          name: 'RequestLimitExceeded',
          $fault: 'client',
          $metadata: {},
          message: 'slow down',
        }),
      );
      // Act / Assess
      await expect(
        marketplace().purchase({ ...request, earlierAttemptsSince: new Date().toISOString() }),
      ).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
      expect(state.purchaseCalls).toBe(0);
    });
  });

  it('buys a second line item of the same offer as its own reservation', async () => {
    await marketplace().purchase(
      purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'm5.xlarge' }),
    );
    await marketplace().purchase(
      purchaseRequest(m5FamilyAllUpfront, 8, 'line-2', { instanceType: 'm5.xlarge' }),
    );
    expect(state.reservations).toHaveLength(2);
  });

  it('refuses units that are not a whole number of instances of the size, and buys nothing', async () => {
    // 12 units of m5.xlarge (8 units) would be 1.5 instances
    const refusal = marketplace().purchase(
      purchaseRequest(m5FamilyAllUpfront, 12, 'line-1', { instanceType: 'm5.xlarge' }),
    );
    await expect(refusal).rejects.toBeInstanceOf(FractionalQuantity);
    await expect(refusal).rejects.toMatchObject({ code: 'ERR_MARKETPLACE_FRACTIONAL_QUANTITY' });
    expect(ec2.commandCalls(PurchaseReservedInstancesOfferingCommand)).toHaveLength(0);
  });

  it('refuses a size-flexible purchase without a size, or with a size of another family', async () => {
    await expect(marketplace().purchase(purchaseRequest(m5FamilyAllUpfront, 8))).rejects.toBeInstanceOf(
      InvalidPurchaseRequest,
    );
    await expect(
      marketplace().purchase(purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'c5.xlarge' })),
    ).rejects.toBeInstanceOf(InvalidPurchaseRequest);
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

  it('refuses an offering whose price rose above the limit, and buys nothing', async () => {
    // Prepare: the provider's price is 1% above the catalog's
    const regional = state.offerings[1] as ReservedInstancesOffering;
    regional.FixedPrice = (regional.FixedPrice ?? 0) * 1.01;
    // Act / Assess
    await expect(
      marketplace().purchase(purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'm5.xlarge' })),
    ).rejects.toBeInstanceOf(PriceAboveLimit);
    expect(state.purchaseCalls).toBe(0);
  });

  it('refuses when EC2 lists only zonal offerings', async () => {
    state.offerings = state.offerings.filter((offering) => offering.Scope !== 'Region');
    await expect(
      marketplace().purchase(purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'm5.xlarge' })),
    ).rejects.toBeInstanceOf(OfferingNotFound);
  });

  it("maps the provider's refusal of the purchase to failed with its message", async () => {
    ec2.on(PurchaseReservedInstancesOfferingCommand).rejects(
      new EC2ServiceException({
        name: 'ReservedInstancesLimitExceeded',
        $fault: 'client',
        $metadata: {},
        message: 'You have reached the limit of reserved instances',
      }),
    );
    const result = await marketplace().purchase(
      purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'm5.xlarge' }),
    );
    expect(result).toEqual({
      status: 'failed',
      message: 'You have reached the limit of reserved instances',
      providerCode: 'ReservedInstancesLimitExceeded',
    });
  });

  it('never reports failed when the buy call ends without an answer', async () => {
    ec2.on(PurchaseReservedInstancesOfferingCommand).rejects(new Error('socket hang up'));
    await expect(
      marketplace().purchase(purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'm5.xlarge' })),
    ).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
  });

  it('reports the purchase completed when only the tagging after it fails', async () => {
    ec2.on(CreateTagsCommand).rejects(
      new EC2ServiceException({
        name: 'RequestLimitExceeded',
        $fault: 'client',
        $metadata: {},
        message: 'slow down',
      }),
    );
    const result = await marketplace().purchase(
      purchaseRequest(m5FamilyAllUpfront, 8, 'line-1', { instanceType: 'm5.xlarge' }),
    );
    expect(result).toMatchObject({ status: 'completed', providerIds: ['ri-1'] });
  });
});

/** Savings Plans as the mock keeps them: plans by the client token that created them. */
function mockSavingsPlans(plans: Map<string, SavingsPlan>) {
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

/** RDS as the mock keeps it: the offerings it lists and the reservations by id. */
interface RdsState {
  offerings: ReservedDBInstancesOffering[];
  reservations: Map<string, ReservedDBInstance>;
  purchaseCalls: number;
}

function mockRds(state: RdsState) {
  const rds = mockClient(RDSClient);
  rds.on(DescribeReservedDBInstancesOfferingsCommand).callsFake((input) => ({
    ReservedDBInstancesOfferings: state.offerings.filter(
      (offering) =>
        offering.DBInstanceClass === input.DBInstanceClass &&
        String(offering.Duration) === input.Duration &&
        offering.ProductDescription === input.ProductDescription &&
        offering.OfferingType === input.OfferingType &&
        offering.MultiAZ === input.MultiAZ,
    ),
  }));
  rds.on(DescribeReservedDBInstancesCommand).callsFake((input) => {
    const reservation = state.reservations.get(input.ReservedDBInstanceId);
    if (!reservation)
      throw new ReservedDBInstanceNotFoundFault({
        $metadata: {},
        message: `${input.ReservedDBInstanceId} not found`,
      });
    return { ReservedDBInstances: [reservation] };
  });
  rds.on(PurchaseReservedDBInstancesOfferingCommand).callsFake((input) => {
    state.purchaseCalls += 1;
    if (state.reservations.has(input.ReservedDBInstanceId)) {
      throw new ReservedDBInstanceAlreadyExistsFault({
        $metadata: {},
        message: `${input.ReservedDBInstanceId} already exists`,
      });
    }
    const offering = state.offerings.find(
      (candidate) => candidate.ReservedDBInstancesOfferingId === input.ReservedDBInstancesOfferingId,
    );
    const reservation: ReservedDBInstance = {
      ReservedDBInstanceId: input.ReservedDBInstanceId,
      ReservedDBInstancesOfferingId: input.ReservedDBInstancesOfferingId,
      DBInstanceClass: offering?.DBInstanceClass,
      DBInstanceCount: input.DBInstanceCount,
      FixedPrice: offering?.FixedPrice,
      UsagePrice: offering?.UsagePrice,
      RecurringCharges: [],
      State: 'payment-pending',
    };
    state.reservations.set(input.ReservedDBInstanceId, reservation);
    return { ReservedDBInstance: reservation };
  });
  return rds;
}

describe('AwsMarketplace: RDS reserved DB instances', () => {
  let state: RdsState;
  let rds: ReturnType<typeof mockRds>;

  beforeEach(() => {
    state = {
      offerings: [
        {
          ReservedDBInstancesOfferingId: 'db-m5-xlarge-all-upfront',
          DBInstanceClass: 'db.m5.xlarge',
          Duration: ONE_YEAR_SECONDS,
          FixedPrice: dbM5Family.upfront * 8,
          UsagePrice: 0,
          CurrencyCode: 'USD',
          ProductDescription: 'mysql',
          OfferingType: 'All Upfront',
          MultiAZ: false,
          RecurringCharges: [],
        },
      ],
      reservations: new Map(),
      purchaseCalls: 0,
    };
    rds = mockRds(state);
  });
  afterEach(() => rds.restore());

  it('names the reservation after the client token within RDS identifier rules', () => {
    const id = reservedDbInstanceId(purchaseRequest(dbM5Family, 8).clientToken);
    expect(id).toMatch(/^[a-z](?:[a-z0-9]|-(?!-))*[a-z0-9]$/);
    expect(id.length).toBeLessThanOrEqual(63);
  });

  it('buys normalized units as whole instances with the derived id', async () => {
    const request = purchaseRequest(dbM5Family, 24, 'line-1', { instanceType: 'db.m5.xlarge' });
    const result = await marketplace().purchase(request);
    const id = reservedDbInstanceId(request.clientToken);
    expect(result).toEqual({
      status: 'completed',
      providerIds: [id],
      upfrontCost: 3 * 8 * dbM5Family.upfront,
      recurringCost: 0,
      providerQuantity: 3,
    });
    expect(rds.commandCalls(PurchaseReservedDBInstancesOfferingCommand)[0]?.args[0].input).toMatchObject({
      ReservedDBInstancesOfferingId: 'db-m5-xlarge-all-upfront',
      ReservedDBInstanceId: id,
      DBInstanceCount: 3,
    });
  });

  it('after a crash between buying and recording, the same token reads the reservation back and buys nothing more', async () => {
    const request = purchaseRequest(dbM5Family, 24, 'line-1', { instanceType: 'db.m5.xlarge' });
    const first = await marketplace().purchase(request);
    const retry = await marketplace().purchase(request);
    expect(retry).toEqual(first);
    expect(state.reservations.size).toBe(1);
    expect(state.purchaseCalls).toBe(1);
  });

  it('answers a resumed request from the reservation its earlier attempt bought, even once the price has risen', async () => {
    // Prepare: the first attempt buys, its process dies before recording; then RDS raises the price
    const since = new Date().toISOString();
    const request = purchaseRequest(dbM5Family, 24, 'line-1', { instanceType: 'db.m5.xlarge' });
    const first = await marketplace().purchase(request);
    const offering = state.offerings[0] as ReservedDBInstancesOffering;
    offering.FixedPrice = (offering.FixedPrice ?? 0) * 1.1;
    // Act
    const retry = await marketplace().purchase({ ...request, earlierAttemptsSince: since });
    // Assess: answered by the id derived from the token, not refused as PriceAboveLimit
    expect(retry).toEqual(first);
    expect(state.reservations.size).toBe(1);
    expect(state.purchaseCalls).toBe(1);
  });

  it('never answers failed when the lookup for a resumed request is refused', async () => {
    rds.on(DescribeReservedDBInstancesCommand).rejects(
      new RDSServiceException({
        name: 'Throttling',
        $fault: 'client',
        $metadata: {},
        message: 'Rate exceeded',
      }),
    );
    const request = purchaseRequest(dbM5Family, 24, 'line-1', { instanceType: 'db.m5.xlarge' });
    await expect(
      marketplace().purchase({ ...request, earlierAttemptsSince: new Date().toISOString() }),
    ).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
    expect(state.purchaseCalls).toBe(0);
  });

  it('answers "already exists" as the earlier purchase made between the lookup and the buy', async () => {
    // Prepare: the lookup misses once (a concurrent attempt buys right after it)
    const request = purchaseRequest(dbM5Family, 8, 'line-1', { instanceType: 'db.m5.xlarge' });
    const id = reservedDbInstanceId(request.clientToken);
    const concurrent: ReservedDBInstance = {
      ReservedDBInstanceId: id,
      DBInstanceCount: 1,
      FixedPrice: dbM5Family.upfront * 8,
      UsagePrice: 0,
    };
    rds
      .on(DescribeReservedDBInstancesCommand)
      .rejectsOnce(new ReservedDBInstanceNotFoundFault({ $metadata: {}, message: 'not found' }))
      .callsFake(() => ({ ReservedDBInstances: [concurrent] }));
    state.reservations.set(id, concurrent);
    // Act
    const result = await marketplace().purchase(request);
    // Assess
    expect(result).toEqual({
      status: 'completed',
      providerIds: [id],
      upfrontCost: 8 * dbM5Family.upfront,
      recurringCost: 0,
      providerQuantity: 1,
    });
    expect(state.reservations.size).toBe(1);
  });

  it('refuses units that are not a whole number of instances', async () => {
    await expect(
      marketplace().purchase(purchaseRequest(dbM5Family, 4, 'line-1', { instanceType: 'db.m5.xlarge' })),
    ).rejects.toBeInstanceOf(FractionalQuantity);
    expect(state.purchaseCalls).toBe(0);
  });
});

describe('AwsMarketplace: lines an operator fulfils', () => {
  it('answers guaranteed offers and Azure/GCP lines as manual, calling no AWS API', async () => {
    const ec2 = mockClient(EC2Client);
    const leased = catalogOffer((offer) => offer.contractType.startsWith('leased_'));
    const azure = catalogOffer((offer) => offer.provider === 'azure');
    const gcp = catalogOffer((offer) => offer.provider === 'gcp');
    for (const offer of [leased, azure, gcp]) {
      expect(await marketplace().purchase(purchaseRequest(offer, 1))).toMatchObject({ status: 'manual' });
    }
    expect(ec2.calls()).toHaveLength(0);
    ec2.restore();
  });
});
