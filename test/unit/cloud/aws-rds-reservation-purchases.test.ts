import {
  DescribeReservedDBInstancesCommand,
  PurchaseReservedDBInstancesOfferingCommand,
  RDSServiceException,
  type ReservedDBInstance,
  ReservedDBInstanceNotFoundFault,
  type ReservedDBInstancesOffering,
} from '@aws-sdk/client-rds';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reservedDbInstanceId } from '../../../shared/cloud/marketplace/aws-rds-reservations';
import { FractionalQuantity, PurchaseOutcomeUnknown } from '../../../shared/cloud/marketplace/marketplace';
import { marketplace } from '../../support/aws-ec2-reservations';
import { dbM5Family, mockRds, type RdsState, rdsSelling } from '../../support/aws-rds-reservations';
import { purchaseRequest } from './marketplace-requests';

describe('AwsMarketplace: RDS reserved DB instances', () => {
  let state: RdsState;
  let rds: ReturnType<typeof mockRds>;

  beforeEach(() => {
    state = rdsSelling();
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
