import { describe, expect, it } from 'vitest';
import type { Offer } from '../../../../shared/domain/engine';
import {
  handCompletionOf,
  InvalidHandQuantity,
  offerUnit,
} from '../../../../shared/domain/purchases/hand-completion';
import type { CandidateSize } from '../../../../shared/domain/purchases/purchase-orders';

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
const family: Offer = {
  ...base,
  id: 'offer-family',
  contractType: 'standard_ris',
  scope: { kind: 'family', region: 'us-east-1', family: 'm5', operatingSystem: 'Linux', tenancy: 'Shared' },
  upfront: 61.25,
  recurring: 0.007,
};
const exact: Offer = {
  ...family,
  id: 'offer-exact',
  scope: {
    kind: 'instance',
    region: 'us-east-1',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    tenancy: 'Shared',
  },
};
const savingsPlan: Offer = {
  ...family,
  id: 'offer-sp',
  contractType: 'compute_plans',
  scope: { kind: 'spend', rates: [] },
};
const sizes: CandidateSize[] = [
  { instanceType: 'm5.large', family: 'm5', region: 'us-east-1', units: 4 },
  { instanceType: 'm5.8xlarge', family: 'm5', region: 'us-east-1', units: 64 },
  { instanceType: 'm5.8xlarge', family: 'm5', region: 'eu-west-1', units: 64 },
];
const catalog = { pricedInstances: () => sizes };
const record = (instanceType: string | null) => ({ id: 'p-1', provider: 'aws' as const, instanceType });

describe('a purchase completed by hand', () => {
  it('stores a size-flexible quantity as instances of the size bought, never units x units', () => {
    // 64 normalized units bought as m5.large (4 units each): 64 / 4 = 16 instances; as m5.8xlarge
    // (64 units each): 64 / 64 = 1 instance. Costs per normalized unit: 64 x 61.25 = 3,920 upfront,
    // 64 x 0.007 = 0.448 per hour.
    const asLarge = handCompletionOf(record('m5.large'), family, catalog, 64, 'lease-1');
    const asEightXl = handCompletionOf(record('m5.8xlarge'), family, catalog, 64, 'lease-1');
    expect(asLarge).toEqual({
      reference: 'lease-1',
      providerQuantity: 16,
      upfrontCost: 3920,
      recurringCost: 0.448,
    });
    expect(asEightXl.providerQuantity).toBe(1);
  });

  it('takes instances for an exact reservation and $/h for a savings plan, as the offer counts them', () => {
    expect(offerUnit(exact)).toBe('instances');
    expect(offerUnit(family)).toBe('normalized units');
    expect(offerUnit(savingsPlan)).toBe('$/h of commitment');
    expect(handCompletionOf(record('m5.large'), exact, catalog, 3, 'r').providerQuantity).toBe(3);
    expect(handCompletionOf(record(null), savingsPlan, catalog, 1.25, 'r').providerQuantity).toBe(1.25);
  });

  it('refuses a quantity the offer cannot have been bought in', () => {
    // 6 units are 1.5 m5.large instances; 2.5 exact instances; nothing bought.
    expect(() => handCompletionOf(record('m5.large'), family, catalog, 6, 'r')).toThrow(InvalidHandQuantity);
    expect(() => handCompletionOf(record('m5.large'), exact, catalog, 2.5, 'r')).toThrow(/whole instances/);
    expect(() => handCompletionOf(record(null), savingsPlan, catalog, 0, 'r')).toThrow(/more than 0/);
  });
});
