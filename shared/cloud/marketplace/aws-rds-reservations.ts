/**
 * RDS Reserved DB Instances through the customer's role. The purchase is named by a
 * `ReservedDBInstanceId` derived from the client token: RDS refuses a second purchase with the
 * same id, and that refusal means the earlier purchase, which is then read back.
 */
import {
  DescribeReservedDBInstancesCommand,
  DescribeReservedDBInstancesOfferingsCommand,
  PurchaseReservedDBInstancesOfferingCommand,
  type RDSClient,
  type RecurringCharge,
  type ReservedDBInstance,
  type ReservedDBInstancesOffering,
} from '@aws-sdk/client-rds';
import {
  OfferingNotFound,
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
} from '../../app/ports/marketplace';
import { CLIENT_TOKEN_TAG } from './aws-ec2-reservations';
import { buy, type FailedPurchase, isFailed, isServiceError, lookup } from './aws-provider-errors';
import { checkLimitPrice, hourlyCharges } from './offering-price';
import { reservationSize } from './purchase-quantity';

/**
 * The reservation's id: letters, digits and single hyphens, starting with a letter, at most 63
 * characters (RDS identifier rules); `cps-` and a UUID make 40.
 */
export function reservedDbInstanceId(clientToken: string): string {
  return `cps-${clientToken.toLowerCase()}`;
}

/** RDS names its recurring charges' fields apart from EC2's. */
function rdsCharges(
  charges: readonly RecurringCharge[] | undefined,
): { Amount?: number; Frequency?: string }[] {
  return (charges ?? []).map((charge) => ({
    Amount: charge.RecurringChargeAmount ?? 0,
    Frequency: charge.RecurringChargeFrequency ?? '',
  }));
}

function completedFrom(reservation: ReservedDBInstance): PurchaseResult {
  const count = reservation.DBInstanceCount ?? 0;
  return {
    status: 'completed',
    providerIds: [reservation.ReservedDBInstanceId ?? ''],
    upfrontCost: (reservation.FixedPrice ?? 0) * count,
    recurringCost: hourlyCharges(reservation.UsagePrice, rdsCharges(reservation.RecurringCharges)) * count,
    providerQuantity: count,
  };
}

/**
 * The reservation bought under this id, or null when there is none. A refused lookup is `failed`
 * only while no earlier attempt may have bought; for a resumed request it leaves the outcome unknown.
 */
async function existingReservation(
  rds: RDSClient,
  id: string,
  resumed: boolean,
): Promise<ReservedDBInstance | null | FailedPurchase> {
  try {
    const answer = await rds.send(new DescribeReservedDBInstancesCommand({ ReservedDBInstanceId: id }));
    return answer.ReservedDBInstances?.[0] ?? null;
  } catch (error) {
    if (isServiceError(error) && error.name === 'ReservedDBInstanceNotFoundFault') return null;
    if (isServiceError(error) && resumed) {
      throw new PurchaseOutcomeUnknown(
        `RDS reservation ${id}: could not look up what an earlier attempt bought (${error.message})`,
      );
    }
    if (isServiceError(error)) return { status: 'failed', message: error.message, providerCode: error.name };
    throw error;
  }
}

async function matchingOffering(
  rds: RDSClient,
  request: PurchaseRequest,
  instanceClass: string,
): Promise<ReservedDBInstancesOffering | undefined | FailedPurchase> {
  const { offer } = request;
  const duration = offer.termHours * 3600;
  const offerings: ReservedDBInstancesOffering[] = [];
  let Marker: string | undefined;
  do {
    const page = await lookup(() =>
      rds.send(
        new DescribeReservedDBInstancesOfferingsCommand({
          DBInstanceClass: instanceClass,
          Duration: String(duration),
          ProductDescription: offer.productDescription,
          OfferingType: offer.paymentOption,
          // The catalog's RDS reservations are Single-AZ.
          MultiAZ: false,
          Marker,
        }),
      ),
    );
    if (isFailed(page)) return page;
    offerings.push(
      ...(page.ReservedDBInstancesOfferings ?? []).filter(
        (offering) =>
          offering.DBInstanceClass === instanceClass &&
          offering.Duration === duration &&
          offering.OfferingType === offer.paymentOption &&
          offering.MultiAZ !== true &&
          (offering.CurrencyCode ?? 'USD') === 'USD',
      ),
    );
    Marker = page.Marker;
  } while (Marker);
  return offerings.reduce<ReservedDBInstancesOffering | undefined>(
    (cheapest, candidate) =>
      cheapest === undefined || (candidate.FixedPrice ?? 0) < (cheapest.FixedPrice ?? 0)
        ? candidate
        : cheapest,
    undefined,
  );
}

export async function purchaseRdsReservation(
  rds: RDSClient,
  request: PurchaseRequest,
): Promise<PurchaseResult> {
  const size = reservationSize(request);
  const id = reservedDbInstanceId(request.clientToken);
  const earlier = await existingReservation(rds, id, request.earlierAttemptsSince !== undefined);
  if (isFailed(earlier)) return earlier;
  if (earlier) return completedFrom(earlier);

  const offering = await matchingOffering(rds, request, size.instanceType);
  if (isFailed(offering)) return offering;
  if (!offering?.ReservedDBInstancesOfferingId) {
    throw new OfferingNotFound(
      `RDS lists no offering for ${size.instanceType} matching ${request.offer.providerOfferingId}`,
    );
  }
  const offeringId = offering.ReservedDBInstancesOfferingId;
  const price = {
    upfront: offering.FixedPrice ?? 0,
    recurring: hourlyCharges(offering.UsagePrice, rdsCharges(offering.RecurringCharges)),
  };
  checkLimitPrice(price, size.unitsPerInstance, request.offer.termHours, request.limitPrice, offeringId);

  const purchased = await buy(
    () =>
      rds.send(
        new PurchaseReservedDBInstancesOfferingCommand({
          ReservedDBInstancesOfferingId: offeringId,
          ReservedDBInstanceId: id,
          DBInstanceCount: size.count,
          Tags: [{ Key: CLIENT_TOKEN_TAG, Value: request.clientToken }],
        }),
      ),
    `RDS reservation ${offeringId}`,
  );
  if (isFailed(purchased)) {
    if (purchased.providerCode !== 'ReservedDBInstanceAlreadyExistsFault') return purchased;
    // Another call with this token bought it between our lookup and our purchase.
    const concurrent = await existingReservation(rds, id, request.earlierAttemptsSince !== undefined);
    if (isFailed(concurrent)) return concurrent;
    if (concurrent) return completedFrom(concurrent);
    return purchased;
  }
  if (purchased.ReservedDBInstance) return completedFrom(purchased.ReservedDBInstance);
  return {
    status: 'completed',
    providerIds: [id],
    upfrontCost: price.upfront * size.count,
    recurringCost: price.recurring * size.count,
    providerQuantity: size.count,
  };
}
