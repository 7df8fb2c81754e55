import { describe, expect, it } from 'vitest';
import type { ExistingCommitment, Offer } from '../../../../shared/domain/engine';
import { ownedForPlanning } from '../../../../shared/domain/purchases/ordered-commitments';
import type { PurchaseRecord } from '../../../../shared/domain/purchases/purchase-record';
import { aPurchaseRecord } from '../../../support/purchase-records';

const lease: Offer = {
  id: 'offer-lease',
  provider: 'aws',
  contractType: 'standard_ris',
  term: 'three_year',
  paymentOption: 'No Upfront',
  termHours: 26_280,
  lockinHours: 720,
  feeRate: 0.3,
  providerOfferingId: 'x',
  displayName: 'x',
  leasedDisplayName: 'x',
  productDescription: 'Linux/UNIX',
  offeringClass: 'standard',
  planType: '',
  source: 'test',
  illustrative: false,
  scope: { kind: 'family', region: 'us-east-1', family: 'm5', operatingSystem: 'Linux', tenancy: 'Shared' },
  upfront: 0,
  recurring: 0.03,
};
// m5.large counts 4 normalized units: the 32 units a record orders are 8 instances.
const offers = {
  offerById: (id: string) => (id === lease.id ? lease : undefined),
  pricedInstances: () => [{ instanceType: 'm5.large', family: 'm5', region: 'us-east-1', units: 4 }],
};

function ordered(overrides: Partial<PurchaseRecord>): PurchaseRecord {
  return aPurchaseRecord({
    offerId: lease.id,
    quantity: 32,
    instanceType: 'm5.large',
    plannedUpfrontCost: 0,
    plannedRecurringCost: 0.96,
    createdAt: '2026-11-24T10:00:00.000Z',
    ...overrides,
  });
}

const stored: ExistingCommitment = {
  id: 'ri-owned',
  provider: 'aws',
  accountId: '123456789012',
  region: 'us-east-1',
  contractType: 'standard_ris',
  instanceType: 'm5.large',
  quantity: 2,
  hourlyCommitment: 0,
  upfrontCost: 0,
  recurringCost: 0.06,
  start: '2025-12-04T10:00:00.000Z',
  end: '2026-12-04T10:00:00.000Z',
  lockinEnd: '2026-12-04T10:00:00.000Z',
};

describe('what an org owns for planning', () => {
  it('owns a queued renewal from its start, bought when it was ordered, in the quantity (as instances of its size) and at the cost planned', () => {
    const renewal = ordered({ startsAt: '2026-12-04T10:00:00.000Z' });

    const owned = ownedForPlanning([stored], [renewal], offers);

    // 26,280 hours after the start; locked in for 720 hours.
    expect(owned).toEqual([
      stored,
      expect.objectContaining({
        id: renewal.id,
        instanceType: 'm5.large',
        quantity: 8,
        recurringCost: 0.96,
        upfrontCost: 0,
        start: '2026-12-04T10:00:00.000Z',
        end: '2029-12-03T10:00:00.000Z',
        lockinEnd: '2027-01-03T10:00:00.000Z',
        purchasedAt: '2026-11-24T10:00:00.000Z',
      }),
    ]);
  });

  it('owns a purchase being bought or waiting for an operator from when it was ordered; not one refused', () => {
    const records = [
      ordered({ status: 'purchasing' }),
      ordered({ status: 'manual' }),
      ordered({ status: 'failed' }),
    ];

    const owned = ownedForPlanning([], records, offers);

    expect(owned.map((each) => [each.id, each.start])).toEqual([
      [records[0]?.id, '2026-11-24T10:00:00.000Z'],
      [records[1]?.id, '2026-11-24T10:00:00.000Z'],
    ]);
  });

  it('counts a completed purchase once: as the processor stored it, as a sync or a file names it, or from its record when neither holds it', () => {
    const completed = ordered({
      status: 'completed',
      completedAt: '2026-11-24T11:00:00.000Z',
      providerIds: ['ri-0123'],
      providerQuantity: 8,
      recurringCost: 0.9,
    });
    const asStored = { ...stored, id: completed.id };
    const asRead = { ...stored, id: 'ri-0123' };

    expect(ownedForPlanning([asStored], [completed], offers)).toEqual([asStored]);
    expect(ownedForPlanning([asRead], [completed], offers)).toEqual([asRead]);
    expect(ownedForPlanning([], [completed], offers)).toEqual([
      expect.objectContaining({ id: completed.id, recurringCost: 0.9, start: '2026-11-24T11:00:00.000Z' }),
    ]);
  });

  it('matches a purchase to its stored commitment by the ids the caller derives from its provider ids', () => {
    const bought = ordered({ status: 'purchasing', providerIds: ['order-1'] });
    const read = { ...stored, id: 'reservation-9' };

    const owned = ownedForPlanning([read], [bought], offers, (record) =>
      record.providerIds.includes('order-1') ? ['reservation-9'] : [],
    );

    expect(owned).toEqual([read]);
  });
});
