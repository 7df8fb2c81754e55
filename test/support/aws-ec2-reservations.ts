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
import { mockClient } from 'aws-sdk-client-mock';
import { AwsMarketplace } from '../../shared/cloud/marketplace/aws-marketplace';
import type { Offer } from '../../shared/domain/engine/shapes/model';
import { catalogOffer } from '../unit/cloud/marketplace-requests';

/**
 * EC2's reserved instances as the aws marketplace tests meet them (test/unit/cloud/aws-ec2-*):
 * a mock EC2 that keeps what it sold, the catalog offers the tests buy, and the marketplace under
 * test. The mock lists offerings, sells, tags and filters as EC2 does for the calls the adapter sends.
 */

export const ONE_YEAR_SECONDS = 31_536_000;

/** The marketplace under test, assuming the customer's purchase role. */
export const marketplace = () =>
  new AwsMarketplace({ roleArn: 'arn:aws:iam::123456789012:role/purchases', externalId: 'ext-1' });

export const m5FamilyAllUpfront = catalogOffer(
  (offer) =>
    offer.provider === 'aws' &&
    offer.contractType === 'standard_ris' &&
    offer.scope.kind === 'family' &&
    offer.scope.family === 'm5' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'All Upfront',
);
export const m5LargeWindows = catalogOffer(
  (offer) =>
    offer.provider === 'aws' &&
    offer.contractType === 'convertible_ris' &&
    offer.scope.kind === 'instance' &&
    offer.scope.instanceType === 'm5.large' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'Partial Upfront',
);

/** EC2 as the mock keeps it: the offerings it lists and the reservations it sold. */
export interface Ec2State {
  offerings: ReservedInstancesOffering[];
  reservations: ReservedInstances[];
  purchaseCalls: number;
  /** The next purchase is made but its answer never reaches the caller. */
  answerLost?: boolean;
  /** The next CreateTags never happens: the caller died after buying. */
  diesBeforeTagging?: boolean;
}

/** A reservation of `count` instances bought from the offering at `start`, untagged. */
export function reservationOf(
  offering: ReservedInstancesOffering,
  count: number,
  start: Date,
): ReservedInstances {
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

/** An EC2 offering priced per instance at the catalog's per-unit price times the size's units. */
export function ec2Offering(
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

export function mockEc2(state: Ec2State) {
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

/** EC2's answer refusing a call, as its client throws it. */
export function ec2Refusal(name: string, message: string): EC2ServiceException {
  return new EC2ServiceException({ name, $fault: 'client', $metadata: {}, message });
}

/** The offerings the EC2 tests buy from: m5.xlarge zonal and regional, and m5.large Windows. */
export function ec2Selling(): Ec2State {
  return {
    offerings: [
      ec2Offering(m5FamilyAllUpfront, 'm5.xlarge', 8, 'Availability Zone'),
      ec2Offering(m5FamilyAllUpfront, 'm5.xlarge', 8, 'Region'),
      ec2Offering(m5LargeWindows, 'm5.large', 1, 'Region'),
    ],
    reservations: [],
    purchaseCalls: 0,
  };
}
