/**
 * Random Linux m5/r5 fleets with owned reservations, EC2 Instance Savings Plans for m5 and Compute
 * Savings Plans (plans.owned-savings-plans.test.ts), the commitments the processor records once a
 * plan is bought, and a naive hour loop of the provider's billing rules that reads nothing the
 * engine computed: reservations first (the first bought used first), then EC2 Instance Savings
 * Plans, then Compute Savings Plans, each savings plan on the highest discount first and within
 * one discount in proportion to what is left (AWS Savings Plans User Guide, "Understanding how
 * Savings Plans apply to your AWS usage").
 */
import fc from 'fast-check';
import type { EngineInput } from '../../../shared/domain/engine/shapes/engine-input';
import type { ExistingCommitment, Offer, UsageStream } from '../../../shared/domain/engine/shapes/model';
import type { LineItem } from '../../../shared/domain/engine/shapes/plan-shapes';
import { handCompletionOf } from '../../../shared/domain/purchases/hand-completion';
import {
  type CandidateSize,
  commitmentOf,
  type PurchaseCatalog,
  purchaseRecordsOf,
} from '../../../shared/domain/purchases/purchase-orders';
import { commitment, engineInput, hourly, offer, stream } from './builders';

export const HOURS = 48;
/** Two hours after the window: the plan's time, when its lines are bought. */
export const PLAN_TIME = '2025-01-03T02:00:00.000Z';
const HOUR_MS = 3_600_000;
const OWNED_TERM = { start: '2024-06-01T00:00:00.000Z', end: '2025-06-01T00:00:00.000Z' } as const;

type Family = 'm5' | 'r5';
/** On-demand dollars per normalized unit, and the sizes the fleet runs (units per instance). */
const UNIT_PRICE: Readonly<Record<Family, number>> = { m5: 0.125, r5: 0.15 };
const SIZES: Readonly<Record<string, { family: Family; units: number }>> = {
  'm5.large': { family: 'm5', units: 4 },
  'm5.xlarge': { family: 'm5', units: 8 },
  'r5.large': { family: 'r5', units: 4 },
};
const familyOf = (instanceType: string) => (SIZES[instanceType] as { family: Family }).family;
const unitsOf = (instanceType: string) => (SIZES[instanceType] as { units: number }).units;
const priceOf = (instanceType: string) => UNIT_PRICE[familyOf(instanceType)] * unitsOf(instanceType);

/** Discounts of the catalog's one Compute Savings Plan table and one m5 instance plan table. */
export interface Discounts {
  readonly computeM5: number;
  readonly computeR5: number;
  readonly instanceM5: number;
}

export interface OwnedPlansFleet {
  readonly streams: UsageStream[];
  readonly offers: Offer[];
  readonly owned: ExistingCommitment[];
  readonly discounts: Discounts;
}

const payments = ['No Upfront', 'Partial Upfront', 'All Upfront'] as const;
const upfrontShare = { 'No Upfront': 0, 'Partial Upfront': 0.5, 'All Upfront': 1 } as const;

function spendOffer(
  id: string,
  kind: 'compute' | 'instance',
  d: Discounts,
  payment: (typeof payments)[number],
  term: number,
) {
  const share = upfrontShare[payment];
  return offer({
    id,
    contractType: kind === 'compute' ? 'compute_plans' : 'instance_plans',
    offeringClass: '',
    term: term === 8760 ? 'one_year' : 'three_year',
    termHours: term,
    lockinHours: term,
    paymentOption: payment,
    // A commitment dollar costs a dollar an hour, however it is paid.
    upfront: share * term,
    recurring: 1 - share,
    productDescription: 'Linux/UNIX',
    scope: {
      kind: 'spend',
      rates:
        kind === 'compute'
          ? [
              { family: 'm5', discount: d.computeM5 },
              { family: 'r5', discount: d.computeR5 },
            ]
          : [{ region: 'us-east-1', family: 'm5', discount: d.instanceM5 }],
    },
  });
}

function reservationOffer(
  id: string,
  family: Family,
  rateShare: number,
  payment: (typeof payments)[number],
  term: number,
) {
  const rate = rateShare * UNIT_PRICE[family];
  const share = upfrontShare[payment];
  return offer({
    id,
    term: term === 8760 ? 'one_year' : 'three_year',
    termHours: term,
    lockinHours: term,
    paymentOption: payment,
    upfront: rate * share * term,
    recurring: rate * (1 - share),
    productDescription: 'Linux/UNIX',
    scope: { kind: 'family', region: 'us-east-1', family, operatingSystem: 'Linux', tenancy: 'Shared' },
  });
}

const usagePattern = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 });

const ownedPlan = (id: string, kind: 'compute' | 'instance', perHour: number) =>
  commitment({
    id,
    contractType: kind === 'compute' ? 'compute_plans' : 'instance_plans',
    instanceType: null,
    operatingSystem: undefined,
    quantity: 0,
    hourlyCommitment: perHour,
    recurringCost: perHour,
    ...(kind === 'instance' ? { instanceFamily: 'm5' } : {}),
    ...OWNED_TERM,
    lockinEnd: OWNED_TERM.end,
  });

/**
 * `instanceM5`: the discounts the m5 instance plan may have. The engine buys one savings-plan
 * table per sharing key (docs/plan-engine.md, Quantities), so where an instance plan for m5 beats
 * a Compute Savings Plan over m5 and r5, the next plan covers the r5 with a compute plan: the fixed
 * point is checked with instance plans that never beat compute ones (they still come first).
 */
export const ownedPlansFleetArbitrary = (
  instanceM5: readonly number[] = [0.35, 0.5],
): fc.Arbitrary<OwnedPlansFleet> =>
  fc
    .record({
      streams: fc.array(
        fc.record({ type: fc.constantFrom('m5.large', 'm5.xlarge', 'r5.large'), usage: usagePattern }),
        { minLength: 1, maxLength: 4 },
      ),
      discounts: fc.record({
        computeM5: fc.constantFrom(0.2, 0.3, 0.4),
        computeR5: fc.constantFrom(0.2, 0.3),
        instanceM5: fc.constantFrom(...instanceM5),
      }),
      reservations: fc.uniqueArray(
        fc.record({
          family: fc.constantFrom<Family>('m5', 'r5'),
          rateShare: fc.constantFrom(0.4, 0.55, 0.7),
          payment: fc.constantFrom(...payments),
          term: fc.constantFrom(8760, 26280),
        }),
        { maxLength: 4, selector: ({ family, payment, term }) => `${family}:${payment}:${term}` },
      ),
      threeYearPlans: fc.boolean(),
      computePlan: fc.option(fc.constantFrom(0.05, 0.2, 0.45, 0.9), { nil: undefined }),
      instancePlan: fc.option(fc.constantFrom(0.05, 0.2, 0.45), { nil: undefined }),
      ownedReservations: fc.array(
        fc.record({
          type: fc.constantFrom('m5.large', 'r5.large'),
          quantity: fc.integer({ min: 1, max: 2 }),
        }),
        { maxLength: 2 },
      ),
    })
    .map(
      ({
        streams,
        discounts,
        reservations,
        threeYearPlans,
        computePlan,
        instancePlan,
        ownedReservations,
      }) => {
        const offers: Offer[] = [
          // No Upfront one-year plans: the offers the owned plans were bought from.
          spendOffer('sp-compute-1y', 'compute', discounts, 'No Upfront', 8760),
          spendOffer('sp-instance-1y', 'instance', discounts, 'No Upfront', 8760),
          ...reservations.map(({ family, rateShare, payment, term }, k) =>
            reservationOffer(`ri-${k}`, family, rateShare, payment, term),
          ),
        ];
        if (threeYearPlans) {
          offers.push(spendOffer('sp-compute-3y', 'compute', discounts, 'All Upfront', 26280));
          offers.push(spendOffer('sp-instance-3y', 'instance', discounts, 'All Upfront', 26280));
        }
        const owned: ExistingCommitment[] = ownedReservations.map(({ type, quantity }, k) =>
          commitment({
            id: `owned-ri-${k}`,
            instanceType: type,
            operatingSystem: 'Linux',
            quantity,
            recurringCost: quantity * 0.6 * priceOf(type),
            ...OWNED_TERM,
            lockinEnd: OWNED_TERM.end,
          }),
        );
        if (computePlan !== undefined) owned.push(ownedPlan('owned-compute', 'compute', computePlan));
        if (instancePlan !== undefined) owned.push(ownedPlan('owned-instance', 'instance', instancePlan));
        return {
          streams: streams.map(({ type, usage }, k) =>
            stream({
              resourceId: `r-${k}`,
              instanceType: type,
              operatingSystem: 'Linux',
              ondemandPrice: priceOf(type),
              usage: hourly(HOURS, (hour) => usage[hour % usage.length] ?? 0),
            }),
          ),
          offers,
          owned,
          discounts,
        };
      },
    );

export function fleetInput(fleet: OwnedPlansFleet, commitments: readonly ExistingCommitment[]): EngineInput {
  return engineInput({
    hours: HOURS,
    streams: fleet.streams,
    offers: fleet.offers,
    commitments: [...commitments],
    createdAt: PLAN_TIME,
  });
}

const CANDIDATES: readonly CandidateSize[] = Object.entries(SIZES).map(
  ([instanceType, { family, units }]) => ({
    instanceType,
    family,
    region: 'us-east-1',
    units,
  }),
);

/** What the processor owns once the plan's selected lines are bought at the plan's time. */
export function bought(planId: string, lineItems: readonly LineItem[], offers: readonly Offer[]) {
  const catalog: PurchaseCatalog = {
    offerById: (id) => offers.find((each) => each.id === id),
    pricedInstances: () => CANDIDATES,
  };
  const records = purchaseRecordsOf(
    { orgId: 'org', planId, provider: 'aws', lineItems },
    catalog,
    (plan, line) => `${plan}:${line}`,
    PLAN_TIME,
  );
  return records.map((record) => {
    const offered = catalog.offerById(record.offerId) as Offer;
    const completion = handCompletionOf(record, offered, catalog, record.quantity, `ref-${record.id}`);
    return commitmentOf({ ...record, ...completion, status: 'completed', completedAt: PLAN_TIME }, offered);
  });
}

const seniority = (entry: ExistingCommitment) =>
  Math.ceil(Date.parse(entry.purchasedAt ?? entry.start) / HOUR_MS);

/** Splits `used` of a pool over its commitments, the first bought first; adds each one's share to `tally`. */
function splitFirstBought(
  pool: readonly ExistingCommitment[],
  capacity: (c: ExistingCommitment) => number,
  used: number,
  tally: Map<ExistingCommitment, number>,
) {
  let left = used;
  for (const entry of pool) {
    const take = Math.min(capacity(entry), left);
    tally.set(entry, (tally.get(entry) ?? 0) + take / capacity(entry));
    left -= take;
  }
}

/**
 * Per commitment, its utilization over the window's hours with every commitment applying in all
 * of them (as the plan counts the ones in force at its time): the mean share of its capacity used.
 */
export function billedUtilization(
  streams: readonly UsageStream[],
  commitments: readonly ExistingCommitment[],
  discounts: Discounts,
): Map<ExistingCommitment, number> {
  const ordered = [...commitments].sort((a, b) => seniority(a) - seniority(b));
  const reservations = ordered.filter((entry) => entry.instanceType !== null);
  const instancePlans = ordered.filter((entry) => entry.contractType === 'instance_plans');
  const computePlans = ordered.filter((entry) => entry.contractType === 'compute_plans');
  const tally = new Map<ExistingCommitment, number>(commitments.map((entry) => [entry, 0]));
  for (let t = 0; t < HOURS; t++) {
    // On-demand dollars left of each stream.
    const left = streams.map((each) => (each.usage[t] as number) * each.ondemandPrice);
    for (const family of ['m5', 'r5'] as const) {
      const members = streams
        .map((_stream, s) => s)
        .filter((s) => familyOf((streams[s] as UsageStream).instanceType) === family);
      const units = members.reduce((sum, s) => sum + (left[s] as number) / UNIT_PRICE[family], 0);
      const pool = reservations.filter((entry) => familyOf(entry.instanceType as string) === family);
      const capacity = (entry: ExistingCommitment) => entry.quantity * unitsOf(entry.instanceType as string);
      const used = Math.min(
        units,
        pool.reduce((sum, entry) => sum + capacity(entry), 0),
      );
      splitFirstBought(pool, capacity, used, tally);
      for (const s of members) left[s] = units > 0 ? (left[s] as number) * (1 - used / units) : 0;
    }
    // Savings plans: instance plans (m5 only), then compute plans, each highest discount first.
    const planTiers = [
      { pool: instancePlans, tiers: [{ discount: discounts.instanceM5, families: ['m5'] }] },
      {
        pool: computePlans,
        tiers: [
          { discount: discounts.computeM5, families: ['m5'] },
          { discount: discounts.computeR5, families: ['r5'] },
        ],
      },
    ];
    for (const { pool, tiers } of planTiers) {
      const capacity = (entry: ExistingCommitment) => entry.hourlyCommitment;
      let dollars = pool.reduce((sum, entry) => sum + capacity(entry), 0);
      let used = 0;
      const byDiscount = new Map<number, string[]>();
      for (const { discount, families } of tiers)
        byDiscount.set(discount, [...(byDiscount.get(discount) ?? []), ...families]);
      for (const discount of [...byDiscount.keys()].sort((a, b) => b - a)) {
        const families = byDiscount.get(discount) as string[];
        const members = streams
          .map((_stream, s) => s)
          .filter((s) => families.includes(familyOf((streams[s] as UsageStream).instanceType)));
        const needed = members.reduce((sum, s) => sum + (left[s] as number) * (1 - discount), 0);
        const take = Math.min(dollars, needed);
        for (const s of members) left[s] = needed > 0 ? (left[s] as number) * (1 - take / needed) : 0;
        dollars -= take;
        used += take;
      }
      splitFirstBought(pool, capacity, used, tally);
    }
  }
  return new Map([...tally].map(([entry, hours]) => [entry, hours / HOURS]));
}
