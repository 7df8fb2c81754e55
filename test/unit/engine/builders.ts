/**
 * Builders of engine inputs for the engine's tests: streams, offers and commitments with plain
 * defaults that each test overrides with the fields it is about.
 */
import type { EngineInput } from '../../../shared/domain/engine/shapes/engine-input';
import type {
  ExistingCommitment,
  Offer,
  OfferScope,
  PlanProfile,
  UsageStream,
} from '../../../shared/domain/engine/shapes/model';

export const WINDOW_START = '2025-01-01T00:00:00.000Z';
export const ONE_YEAR = 8760;

export type StreamSpec = Partial<Omit<UsageStream, 'usage'>> & { readonly usage: readonly number[] };

/** An exactly matched stream by default (Windows usage is never size flexible). */
export function stream(spec: StreamSpec): UsageStream {
  return {
    resourceId: 'i-0001',
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.large',
    operatingSystem: 'Windows',
    tenancy: 'Shared',
    usageType: 'running',
    usageUnit: 'Hrs',
    ondemandPrice: 1,
    ...spec,
    usage: Float64Array.from(spec.usage),
  };
}

/** Usage of `hours` hours: `value(t)` in hour t. */
export function hourly(hours: number, value: (hour: number) => number): number[] {
  return Array.from({ length: hours }, (_, hour) => value(hour));
}

export const instanceScope = (
  overrides: Partial<Extract<OfferScope, { kind: 'instance' }>> = {},
): OfferScope => ({
  kind: 'instance',
  region: 'us-east-1',
  instanceType: 'm5.large',
  operatingSystem: 'Windows',
  tenancy: 'Shared',
  ...overrides,
});

export type OfferSpec = Partial<Offer> & { readonly id: string };

/** A one-year, no-upfront, no-fee offer for the default stream unless told otherwise. */
export function offer(spec: OfferSpec): Offer {
  return {
    provider: 'aws',
    contractType: 'standard_ris',
    term: 'one_year',
    paymentOption: 'No Upfront',
    scope: instanceScope(),
    termHours: ONE_YEAR,
    lockinHours: spec.termHours ?? ONE_YEAR,
    upfront: 0,
    recurring: 0.5,
    feeRate: 0,
    providerOfferingId: `provider-${spec.id}`,
    displayName: `Offer ${spec.id}`,
    leasedDisplayName: `Leased offer ${spec.id}`,
    productDescription: 'Windows',
    offeringClass: 'standard',
    planType: '',
    source: 'test',
    illustrative: true,
    ...spec,
  };
}

/** A one-year Windows reservation of the default stream's type unless told otherwise. */
export function commitment(spec: Partial<ExistingCommitment> & { readonly id: string }): ExistingCommitment {
  return {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    contractType: 'standard_ris',
    instanceType: 'm5.large',
    quantity: 1,
    hourlyCommitment: 0,
    upfrontCost: 0,
    recurringCost: 0.5,
    start: '2024-06-01T00:00:00.000Z',
    end: '2025-06-01T00:00:00.000Z',
    lockinEnd: '2025-06-01T00:00:00.000Z',
    operatingSystem: spec.instanceType === null ? undefined : 'Windows',
    ...spec,
  };
}

export const HIGH_SAVINGS: PlanProfile = { name: 'High Savings', hazard: 0 };

export function engineInput(spec: Partial<EngineInput> & { readonly hours: number }): EngineInput {
  const { hours, ...rest } = spec;
  return {
    orgId: '0b6e6d52-4c1b-4c1f-9d0e-6a4f3c2b1a00',
    provider: 'aws',
    window: { start: WINDOW_START, hours },
    streams: [],
    commitments: [],
    offers: [],
    planSeed: 'seed',
    createdAt: '2025-02-01T00:00:00.000Z',
    ...rest,
  };
}
