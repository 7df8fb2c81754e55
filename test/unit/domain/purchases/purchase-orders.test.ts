import { describe, expect, it } from 'vitest';
import { purchaseClientToken } from '../../../../shared/cloud/marketplace/marketplace';
import type { LineItem, Offer } from '../../../../shared/domain/engine';
import {
  type CandidateSize,
  commitmentOf,
  effectiveHourly,
  type PurchaseCatalog,
  purchaseRecordsOf,
  UnpurchasableLineItem,
} from '../../../../shared/domain/purchases/purchase-orders';
import { planOutcome } from '../../../../shared/domain/purchases/purchase-record';

const base = {
  provider: 'aws',
  term: 'one_year',
  paymentOption: 'Partial Upfront',
  termHours: 8760,
  lockinHours: 8760,
  feeRate: 0,
  providerOfferingId: 'x',
  displayName: 'x',
  leasedDisplayName: 'x',
  productDescription: 'Linux/UNIX',
  offeringClass: 'standard',
  planType: '',
  source: 'test',
  illustrative: false,
} as const;

const exact: Offer = {
  ...base,
  id: 'offer-exact',
  contractType: 'standard_ris',
  scope: {
    kind: 'instance',
    region: 'us-east-1',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    tenancy: 'Shared',
  },
  upfront: 438,
  recurring: 0.05,
};
const family: Offer = {
  ...base,
  id: 'offer-family',
  contractType: 'standard_ris',
  scope: { kind: 'family', region: 'us-east-1', family: 'm5', operatingSystem: 'Linux', tenancy: 'Shared' },
  upfront: 100,
  recurring: 0.01,
};
const savingsPlan: Offer = {
  ...base,
  id: 'offer-sp',
  contractType: 'compute_plans',
  scope: { kind: 'spend', rates: [] },
  upfront: 0,
  recurring: 1,
};

const sizes: CandidateSize[] = [
  { instanceType: 'm5.large', family: 'm5', region: 'us-east-1', units: 4 },
  { instanceType: 'm5.xlarge', family: 'm5', region: 'us-east-1', units: 8 },
  { instanceType: 'm5.2xlarge', family: 'm5', region: 'us-east-1', units: 16 },
  { instanceType: 'm5.4xlarge', family: 'm5', region: 'eu-west-1', units: 32 },
];
const catalog: PurchaseCatalog = {
  offerById: (id) => [exact, family, savingsPlan].find((offer) => offer.id === id),
  pricedInstances: () => sizes,
};

function line(id: string, offer: Offer, quantity: number, overrides: Partial<LineItem> = {}): LineItem {
  return {
    id,
    offer_id: offer.id,
    account_id: '111122223333',
    is_selected: true,
    selected_quantity: offer.scope.kind === 'spend' ? 0 : quantity,
    selected_commitment: offer.scope.kind === 'spend' ? quantity : 0,
    offer: { region: 'global' },
    ...overrides,
  } as unknown as LineItem;
}

const plan = (lineItems: LineItem[]) => ({ orgId: 'o', planId: 'p', provider: 'aws' as const, lineItems });
const at = '2026-11-24T10:00:00.000Z';

describe('purchase records of a plan', () => {
  it('queues one record per selected line item, priced at the catalog and named by its line item', () => {
    // Prepare
    const items = [
      line('a', exact, 3),
      line('b', exact, 2, { is_selected: false }),
      line('c', savingsPlan, 1.25),
    ];
    // Act
    const records = purchaseRecordsOf(plan(items), catalog, purchaseClientToken, at);
    // Assess: 3 x m5.large at 438 upfront + 0.05/h; the savings plan $1.25/h at $1 per $1/h
    expect(records.map((r) => r.lineItemId)).toEqual(['a', 'c']);
    expect(records[0]).toMatchObject({
      status: 'queued',
      quantity: 3,
      instanceType: null,
      region: 'us-east-1',
      plannedUpfrontCost: 1314,
      plannedRecurringCost: 0.15000000000000002,
      limitPrice: { upfront: 438, hourly: 438 / 8760 + 0.05 },
      clientToken: purchaseClientToken('p', 'a'),
    });
    expect(records[1]).toMatchObject({ quantity: 1.25, region: 'global', plannedRecurringCost: 1.25 });
  });

  it('buys a family reservation in the largest size that makes whole instances in its region', () => {
    // Act: 24 units are 3 x m5.xlarge (8) but not whole m5.2xlarge (16); m5.4xlarge is in another region
    const [a] = purchaseRecordsOf(plan([line('a', family, 24)]), catalog, purchaseClientToken, at);
    const [b] = purchaseRecordsOf(plan([line('b', family, 32)]), catalog, purchaseClientToken, at);
    // Assess
    expect(a?.instanceType).toBe('m5.xlarge');
    expect(b?.instanceType).toBe('m5.2xlarge');
  });

  it('refuses a plan whose family quantity no size makes whole, or whose offer left the catalog', () => {
    expect(() => purchaseRecordsOf(plan([line('a', family, 6)]), catalog, purchaseClientToken, at)).toThrow(
      UnpurchasableLineItem,
    );
    const gone = { ...exact, id: 'gone' };
    expect(() => purchaseRecordsOf(plan([line('a', gone, 1)]), catalog, purchaseClientToken, at)).toThrow(
      /not in the catalog/,
    );
  });

  it('costs one unit its upfront over the term plus the recurring charge per hour', () => {
    expect(effectiveHourly({ upfront: 876, termHours: 8760, recurring: 0.02 })).toBeCloseTo(0.12, 12);
  });
});

describe('the commitment a purchase owns', () => {
  it('starts when the purchase completed and ends a term later, in the provider units bought', () => {
    // Prepare
    const [record] = purchaseRecordsOf(plan([line('a', family, 24)]), catalog, purchaseClientToken, at);
    if (!record) throw new Error('no record');
    const completed = {
      ...record,
      status: 'completed' as const,
      completedAt: '2026-11-24T12:00:00.000Z',
      providerQuantity: 3,
      upfrontCost: 2400,
      recurringCost: 0.24,
    };
    // Act
    const commitment = commitmentOf(completed, family);
    // Assess
    expect(commitment).toEqual({
      id: record.id,
      provider: 'aws',
      accountId: '111122223333',
      region: 'us-east-1',
      contractType: 'standard_ris',
      instanceType: 'm5.xlarge',
      quantity: 3,
      hourlyCommitment: 0,
      upfrontCost: 2400,
      recurringCost: 0.24,
      start: '2026-11-24T12:00:00.000Z',
      end: '2027-11-24T12:00:00.000Z',
      lockinEnd: '2027-11-24T12:00:00.000Z',
      // When it was bought: of commitments sharing usage, the first bought is used first.
      purchasedAt: '2026-11-24T12:00:00.000Z',
      // What it covers, as the offer says: the next plan finds the offer and the usage back.
      operatingSystem: 'Linux',
      tenancy: 'Shared',
      paymentOption: 'Partial Upfront',
    });
  });

  it("starts at a renewal's start when bought before it (queued), at completion when bought after it", () => {
    // Prepare: a renewal line starting 2026-12-04T12:00Z; one purchase completes 10 days before
    // it (the provider queued it), one 5 minutes after it (the processor waited for the start).
    const startsAt = '2026-12-04T12:00:00.000Z';
    const [record] = purchaseRecordsOf(
      plan([line('a', exact, 2, { startsAt })]),
      catalog,
      purchaseClientToken,
      at,
    );
    if (!record) throw new Error('no record');
    const completedAt = (time: string) => ({ ...record, status: 'completed' as const, completedAt: time });

    // Act
    const queued = commitmentOf(completedAt('2026-11-24T12:00:00.000Z'), exact);
    const waited = commitmentOf(completedAt('2026-12-04T12:05:00.000Z'), exact);

    // Assess: a one-year term from each start (8760 h = 365 days).
    expect(record.startsAt).toBe(startsAt);
    expect(queued).toMatchObject({
      start: startsAt,
      end: '2027-12-04T12:00:00.000Z',
      // Bought before it starts: used before a commitment bought after it (Owned first).
      purchasedAt: '2026-11-24T12:00:00.000Z',
    });
    expect(waited).toMatchObject({ start: '2026-12-04T12:05:00.000Z', end: '2027-12-04T12:05:00.000Z' });
  });

  it('carries what decides its coverage: the platform and tenancy of a reservation, the family and payment of an EC2 Instance Savings Plan', () => {
    // Prepare
    const windows: Offer = {
      ...exact,
      id: 'offer-windows',
      paymentOption: 'All Upfront',
      scope: { ...exact.scope, operatingSystem: 'Windows', tenancy: 'dedicated' } as Offer['scope'],
    };
    const instancePlan: Offer = {
      ...savingsPlan,
      id: 'offer-isp',
      contractType: 'instance_plans',
      planType: 'EC2InstanceSavingsPlans',
      paymentOption: 'No Upfront',
      scope: { kind: 'spend', rates: [{ region: 'us-east-1', family: 'm5', discount: 0.3 }] },
    };
    const completedAt = '2026-11-24T12:00:00.000Z';
    const completed = (offer: Offer, quantity: number) => {
      const [record] = purchaseRecordsOf(
        plan([line('w', offer, quantity)]),
        { ...catalog, offerById: () => offer },
        purchaseClientToken,
        at,
      );
      if (!record) throw new Error('no record');
      return { ...record, status: 'completed' as const, completedAt, providerQuantity: quantity };
    };
    // Act
    const reservation = commitmentOf(completed(windows, 2), windows);
    const instanceFamilyPlan = commitmentOf(completed(instancePlan, 0.5), instancePlan);
    // Assess
    expect(reservation).toMatchObject({
      instanceType: 'm5.large',
      quantity: 2,
      operatingSystem: 'Windows',
      tenancy: 'dedicated',
      paymentOption: 'All Upfront',
    });
    expect(reservation).not.toHaveProperty('availabilityZone');
    expect(instanceFamilyPlan).toMatchObject({
      hourlyCommitment: 0.5,
      instanceFamily: 'm5',
      paymentOption: 'No Upfront',
    });
  });

  it('holds a savings plan as $/h of commitment, and refuses a purchase that is not completed', () => {
    const [record] = purchaseRecordsOf(
      plan([line('c', savingsPlan, 1.25)]),
      catalog,
      purchaseClientToken,
      at,
    );
    if (!record) throw new Error('no record');
    expect(() => commitmentOf(record, savingsPlan)).toThrow(/queued, not completed/);
    const commitment = commitmentOf(
      { ...record, status: 'completed', completedAt: at, providerQuantity: 1.25 },
      savingsPlan,
    );
    expect(commitment).toMatchObject({
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 1.25,
      paymentOption: 'Partial Upfront',
    });
    expect(commitment).not.toHaveProperty('operatingSystem');
  });
});

describe("a plan's outcome", () => {
  it('is completed when every purchase completed, needs_review once none runs and one failed, else open', () => {
    expect(planOutcome([{ status: 'completed' }, { status: 'completed' }])).toBe('completed');
    expect(planOutcome([{ status: 'completed' }, { status: 'failed' }])).toBe('needs_review');
    expect(planOutcome([{ status: 'failed' }, { status: 'queued' }])).toBeNull();
    expect(planOutcome([{ status: 'completed' }, { status: 'manual' }])).toBeNull();
    expect(planOutcome([])).toBeNull();
  });
});
