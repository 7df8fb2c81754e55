import {
  DescribeReservedDBInstancesCommand,
  DescribeReservedDBInstancesOfferingsCommand,
  PurchaseReservedDBInstancesOfferingCommand,
  RDSClient,
  type ReservedDBInstance,
  ReservedDBInstanceAlreadyExistsFault,
  ReservedDBInstanceNotFoundFault,
  type ReservedDBInstancesOffering,
} from '@aws-sdk/client-rds';
import { mockClient } from 'aws-sdk-client-mock';
import { catalogOffer } from '../unit/cloud/marketplace-requests';
import { ONE_YEAR_SECONDS } from './aws-ec2-reservations';

/** RDS reserved DB instances as the aws marketplace tests meet them (test/unit/cloud/aws-rds-reservation-purchases.test.ts). */

export const dbM5Family = catalogOffer(
  (offer) =>
    offer.contractType === 'db_ris' &&
    offer.scope.kind === 'family' &&
    offer.scope.family === 'db.m5' &&
    offer.term === 'one_year' &&
    offer.paymentOption === 'All Upfront',
);

/** RDS as the mock keeps it: the offerings it lists and the reservations by id. */
export interface RdsState {
  offerings: ReservedDBInstancesOffering[];
  reservations: Map<string, ReservedDBInstance>;
  purchaseCalls: number;
}

export function mockRds(state: RdsState) {
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

/** RDS selling db.m5.xlarge All Upfront for MySQL, at the catalog's price. */
export function rdsSelling(): RdsState {
  return {
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
}
