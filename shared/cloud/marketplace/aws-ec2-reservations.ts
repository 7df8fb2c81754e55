/**
 * EC2 Reserved Instances through the customer's role. `PurchaseReservedInstancesOffering` has no
 * idempotency token, so a tag holding the client token guards it: look the tag up first, buy only
 * when no reservation carries it, then tag what was bought.
 */
import {
  CreateTagsCommand,
  DescribeReservedInstancesCommand,
  DescribeReservedInstancesOfferingsCommand,
  type EC2Client,
  PurchaseReservedInstancesOfferingCommand,
  type ReservedInstances,
  type ReservedInstancesOffering,
} from '@aws-sdk/client-ec2';
import { buy, type FailedPurchase, isFailed, lookup } from './aws-provider-errors';
import { OfferingNotFound, type PurchaseRequest, type PurchaseResult } from './marketplace';
import { checkLimitPrice, hourlyCharges } from './offering-price';
import { reservationSize } from './purchase-quantity';

/** The tag key whose value is the client token of the purchase that bought the reservation. */
export const CLIENT_TOKEN_TAG = 'commitment-planning:client-token';

const HOURS_TO_SECONDS = 3600;

/** Engine tenancy -> EC2 `InstanceTenancy`. */
function instanceTenancy(tenancy: string): 'default' | 'dedicated' {
  return tenancy === 'Dedicated' ? 'dedicated' : 'default';
}

function completedFrom(reservations: readonly ReservedInstances[]): PurchaseResult {
  let upfrontCost = 0;
  let recurringCost = 0;
  let count = 0;
  for (const reservation of reservations) {
    const instances = reservation.InstanceCount ?? 0;
    count += instances;
    upfrontCost += (reservation.FixedPrice ?? 0) * instances;
    recurringCost += hourlyCharges(reservation.UsagePrice, reservation.RecurringCharges) * instances;
  }
  return {
    status: 'completed',
    providerIds: reservations.map((reservation) => reservation.ReservedInstancesId ?? ''),
    upfrontCost,
    recurringCost,
    providerQuantity: count,
  };
}

/** The reservations an earlier call with this client token bought, found by their tag. */
async function taggedReservations(
  ec2: EC2Client,
  clientToken: string,
): Promise<readonly ReservedInstances[] | FailedPurchase> {
  const answer = await lookup(() =>
    ec2.send(
      new DescribeReservedInstancesCommand({
        Filters: [{ Name: `tag:${CLIENT_TOKEN_TAG}`, Values: [clientToken] }],
      }),
    ),
  );
  return isFailed(answer) ? answer : (answer.ReservedInstances ?? []);
}

/** The regional (not zonal), non-marketplace offerings of the request's exact terms, every page. */
async function matchingOfferings(
  ec2: EC2Client,
  request: PurchaseRequest,
  instanceType: string,
): Promise<readonly ReservedInstancesOffering[] | FailedPurchase> {
  const { offer } = request;
  if (offer.scope.kind === 'spend') return [];
  const duration = offer.termHours * HOURS_TO_SECONDS;
  const tenancy = instanceTenancy(offer.scope.tenancy);
  const found: ReservedInstancesOffering[] = [];
  let NextToken: string | undefined;
  do {
    const page = await lookup(() =>
      ec2.send(
        new DescribeReservedInstancesOfferingsCommand({
          InstanceType: instanceType as never,
          ProductDescription: offer.productDescription as never,
          OfferingClass: offer.offeringClass as never,
          OfferingType: offer.paymentOption,
          InstanceTenancy: tenancy,
          IncludeMarketplace: false,
          MinDuration: duration,
          MaxDuration: duration,
          Filters: [{ Name: 'scope', Values: ['Region'] }],
          NextToken,
        }),
      ),
    );
    if (isFailed(page)) return page;
    for (const offering of page.ReservedInstancesOfferings ?? []) {
      if (
        offering.Scope === 'Region' &&
        offering.Duration === duration &&
        offering.InstanceType === instanceType &&
        offering.OfferingClass === offer.offeringClass &&
        offering.OfferingType === offer.paymentOption &&
        offering.Marketplace !== true &&
        (offering.CurrencyCode ?? 'USD') === 'USD'
      ) {
        found.push(offering);
      }
    }
    NextToken = page.NextToken;
  } while (NextToken);
  return found;
}

export async function purchaseEc2Reservation(
  ec2: EC2Client,
  request: PurchaseRequest,
): Promise<PurchaseResult> {
  const size = reservationSize(request);
  const earlier = await taggedReservations(ec2, request.clientToken);
  if (isFailed(earlier)) return earlier;
  const bought = earlier.filter((reservation) => reservation.State !== 'payment-failed');
  if (bought.length > 0) return completedFrom(bought);
  if (earlier.length > 0) {
    return {
      status: 'failed',
      message: 'the provider could not take the payment for this reservation',
      providerCode: 'payment-failed',
    };
  }

  const offerings = await matchingOfferings(ec2, request, size.instanceType);
  if (isFailed(offerings)) return offerings;
  const offering = offerings.reduce<ReservedInstancesOffering | undefined>(
    (cheapest, candidate) =>
      cheapest === undefined || (candidate.FixedPrice ?? 0) < (cheapest.FixedPrice ?? 0)
        ? candidate
        : cheapest,
    undefined,
  );
  if (!offering?.ReservedInstancesOfferingId) {
    throw new OfferingNotFound(
      `EC2 lists no regional offering for ${size.instanceType} matching ${request.offer.providerOfferingId}`,
    );
  }
  const offeringId = offering.ReservedInstancesOfferingId;
  const price = {
    upfront: offering.FixedPrice ?? 0,
    recurring: hourlyCharges(offering.UsagePrice, offering.RecurringCharges),
  };
  checkLimitPrice(price, size.unitsPerInstance, request.offer.termHours, request.limitPrice, offeringId);

  const orderLimit = request.limitPrice.upfront * size.unitsPerInstance * size.count;
  const purchased = await buy(
    () =>
      ec2.send(
        new PurchaseReservedInstancesOfferingCommand({
          ReservedInstancesOfferingId: offeringId,
          InstanceCount: size.count,
          // The most the whole order may cost upfront: the limit per unit times the units bought.
          // A No Upfront order has no upfront to cap; its hourly price was checked above.
          ...(orderLimit > 0 ? { LimitPrice: { Amount: orderLimit, CurrencyCode: 'USD' } } : {}),
        }),
      ),
    `EC2 reservation ${offeringId}`,
  );
  if (isFailed(purchased)) return purchased;
  const reservationId = purchased.ReservedInstancesId ?? '';
  try {
    await ec2.send(
      new CreateTagsCommand({
        Resources: [reservationId],
        Tags: [{ Key: CLIENT_TOKEN_TAG, Value: request.clientToken }],
      }),
    );
  } catch {
    // The reservation is bought whatever the tag's fate: the caller records it `completed` and
    // never asks again, so the missing tag cannot lead to a second purchase.
  }
  return {
    status: 'completed',
    providerIds: [reservationId],
    upfrontCost: price.upfront * size.count,
    recurringCost: price.recurring * size.count,
    providerQuantity: size.count,
  };
}
