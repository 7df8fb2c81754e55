/**
 * EC2 Reserved Instances through the customer's role. `PurchaseReservedInstancesOffering` has no
 * idempotency token, so a tag holding the client token guards it: look the tag up first, buy only
 * when no reservation carries it, then tag what was bought.
 *
 * The tag is written by a second call, so an attempt that died between buying and tagging leaves
 * an untagged reservation. A resumed request (`earlierAttemptsSince`) therefore looks for it
 * before buying: the untagged reservations of the same order started since the first attempt
 * began. One is the earlier purchase (tagged now, answered, nothing bought); several are
 * ambiguous (AmbiguousEarlierPurchase: an operator decides); none means the earlier attempt never
 * bought, so this one buys.
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
import {
  AmbiguousEarlierPurchase,
  OfferingNotFound,
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import { buy, type FailedPurchase, isFailed, lookup, lookupEarlier } from './aws-provider-errors';
import { checkLimitPrice, hourlyCharges } from './offering-price';
import { type ReservationSize, reservationSize } from './purchase-quantity';

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
  const queued = reservations.find((reservation) => reservation.State === 'queued')?.Start;
  return {
    status: 'completed',
    providerIds: reservations.map((reservation) => reservation.ReservedInstancesId ?? ''),
    upfrontCost,
    recurringCost,
    providerQuantity: count,
    ...(queued ? { startsAt: queued.toISOString() } : {}),
  };
}

/** The answer for reservations an earlier call bought: `completed`, or `failed` if EC2 could not take the payment. */
function earlierPurchase(reservations: readonly ReservedInstances[]): PurchaseResult {
  const bought = reservations.filter((reservation) => !UNBOUGHT_STATES.includes(reservation.State ?? ''));
  if (bought.length > 0) return completedFrom(bought);
  const state = reservations[0]?.State ?? 'payment-failed';
  return {
    status: 'failed',
    message:
      state === 'queued-deleted'
        ? 'the queued purchase of this reservation was deleted before it started'
        : 'the provider could not take the payment for this reservation',
    providerCode: state,
  };
}

/** The reservations an earlier call with this client token bought, found by their tag. */
async function taggedReservations(
  ec2: EC2Client,
  request: PurchaseRequest,
): Promise<readonly ReservedInstances[] | FailedPurchase> {
  const describe = () =>
    ec2.send(
      new DescribeReservedInstancesCommand({
        Filters: [{ Name: `tag:${CLIENT_TOKEN_TAG}`, Values: [request.clientToken] }],
      }),
    );
  // A first attempt bought nothing yet, so a refused lookup may be answered `failed`; a resumed
  // one may have, so there a refusal leaves the outcome unknown.
  const answer = request.earlierAttemptsSince
    ? await lookupEarlier(describe, 'EC2 reservations tagged with the client token')
    : await lookup(describe);
  return isFailed(answer) ? answer : (answer.ReservedInstances ?? []);
}

/**
 * The states of a reservation a purchase made (`queued`: one bought to start later): a retired
 * one is years old, never a recent attempt's.
 */
const PURCHASED_STATES = ['payment-pending', 'active', 'payment-failed', 'queued'];

/** States of a reservation the purchase did not buy after all. */
const UNBOUGHT_STATES = ['payment-failed', 'queued-deleted'];

/**
 * The reservations an earlier attempt begun at `since` may have bought and not tagged: regional,
 * of the request's instance type, product, tenancy, offering class, payment option, duration and
 * instance count, started at or after `since`, and carrying no client-token tag (a tagged one is
 * another line item's, or one an operator set aside).
 */
async function untaggedReservationsSince(
  ec2: EC2Client,
  request: PurchaseRequest,
  size: ReservationSize,
  since: string,
): Promise<readonly ReservedInstances[]> {
  const { offer } = request;
  if (offer.scope.kind === 'spend') return [];
  const duration = offer.termHours * HOURS_TO_SECONDS;
  const tenancy = instanceTenancy(offer.scope.tenancy);
  const sinceMs = Date.parse(since);
  const answer = await lookupEarlier(
    () =>
      ec2.send(
        new DescribeReservedInstancesCommand({
          OfferingClass: offer.offeringClass as never,
          OfferingType: offer.paymentOption as never,
          Filters: [
            { Name: 'instance-type', Values: [size.instanceType] },
            { Name: 'product-description', Values: [offer.productDescription] },
            { Name: 'duration', Values: [String(duration)] },
            { Name: 'scope', Values: ['Region'] },
            { Name: 'state', Values: PURCHASED_STATES },
          ],
        }),
      ),
    'EC2 reservations an earlier attempt may have bought',
  );
  // The filters are checked again here: EC2 has no filter for the count, the start's lower bound
  // or a missing tag, and a filter EC2 ignored must not widen what may be adopted.
  return (answer.ReservedInstances ?? []).filter(
    (reservation) =>
      reservation.InstanceType === size.instanceType &&
      reservation.ProductDescription === offer.productDescription &&
      (reservation.InstanceTenancy ?? 'default') === tenancy &&
      reservation.OfferingClass === offer.offeringClass &&
      reservation.OfferingType === offer.paymentOption &&
      reservation.Duration === duration &&
      reservation.Scope === 'Region' &&
      reservation.InstanceCount === size.count &&
      PURCHASED_STATES.includes(reservation.State ?? '') &&
      reservation.Start !== undefined &&
      reservation.Start.getTime() >= sinceMs &&
      !(reservation.Tags ?? []).some((tag) => tag.Key === CLIENT_TOKEN_TAG),
  );
}

/**
 * Finds the reservation the earlier attempt bought and did not tag, and tags it with the client
 * token: the answer for this request, or null when that attempt bought nothing. Several
 * candidates are AmbiguousEarlierPurchase.
 */
async function adoptUntaggedPurchase(
  ec2: EC2Client,
  request: PurchaseRequest,
  size: ReservationSize,
  since: string,
): Promise<ReservedInstances | null> {
  const candidates = await untaggedReservationsSince(ec2, request, size, since);
  if (candidates.length === 0) return null;
  const ids = candidates.map((candidate) => candidate.ReservedInstancesId ?? '');
  if (candidates.length > 1) {
    throw new AmbiguousEarlierPurchase(
      `an earlier attempt of line item ${request.lineItemId} (since ${since}) may have bought one of the untagged EC2 reservations ${ids.join(', ')}, all of its order: an operator must tag the line item's reservation with ${CLIENT_TOKEN_TAG}=${request.clientToken} (and set the others aside with another value of that tag) before it is retried`,
      ids,
    );
  }
  const [adopted] = candidates as [ReservedInstances];
  try {
    await ec2.send(
      new CreateTagsCommand({
        Resources: [adopted.ReservedInstancesId ?? ''],
        Tags: [{ Key: CLIENT_TOKEN_TAG, Value: request.clientToken }],
      }),
    );
  } catch (error) {
    // Unlike after a purchase, the tag is what makes the reservation this line item's: untagged,
    // another resumed line item of the same order could answer it too. Leave it for a retry.
    const reason = error instanceof Error ? error.message : String(error);
    throw new PurchaseOutcomeUnknown(
      `EC2 reservation ${ids[0]}, bought by an earlier attempt, could not be tagged with the client token (${reason})`,
    );
  }
  return adopted;
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
  const tagged = await taggedReservations(ec2, request);
  if (isFailed(tagged)) return tagged;
  if (tagged.length > 0) return earlierPurchase(tagged);
  if (request.earlierAttemptsSince) {
    const adopted = await adoptUntaggedPurchase(ec2, request, size, request.earlierAttemptsSince);
    if (adopted) return earlierPurchase([adopted]);
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
          // A renewal: queued now, in state `queued`, to start at the end of the one it renews.
          ...(request.startsAt ? { PurchaseTime: new Date(request.startsAt) } : {}),
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
    ...(request.startsAt ? { startsAt: request.startsAt } : {}),
  };
}
