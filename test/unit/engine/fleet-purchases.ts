/**
 * Random AWS fleets, catalogs and owned reservations for the properties of buying a plan
 * (plans.fixed-point.test.ts, plans.owned-utilization.test.ts), and the commitments the processor
 * records once a plan's selected lines are bought (purchase records, the completion in the
 * provider's unit, `commitmentOf`).
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

export const HOUR_MS = 3_600_000;
/** The plans are computed 2 hours after a 48-hour window, bought then and computed again then. */
export const WINDOW_HOURS = 48;
export const PLAN_TIME = '2025-01-03T02:00:00.000Z';
export const at = (hour: number) => new Date(Date.UTC(2025, 0, 1) + hour * HOUR_MS).toISOString();

/** m5 sizes the catalog prices, in normalized units (a family line is bought in the largest whole one). */
export const M5_SIZES: readonly CandidateSize[] = [
  ['m5.large', 4],
  ['m5.xlarge', 8],
  ['m5.2xlarge', 16],
  ['m5.4xlarge', 32],
].map(([instanceType, units]) => ({
  instanceType: instanceType as string,
  family: 'm5',
  region: 'us-east-1',
  units: units as number,
}));

export type Kind = 'windows-m5' | 'windows-r5' | 'linux-large' | 'linux-xlarge';

function fleetStream(kind: Kind, index: number, account: string, usage: readonly number[]): UsageStream {
  const linux = kind.startsWith('linux');
  return stream({
    resourceId: `r-${index}`,
    accountId: account,
    instanceType: kind === 'windows-r5' ? 'r5.large' : kind === 'linux-xlarge' ? 'm5.xlarge' : 'm5.large',
    operatingSystem: linux ? 'Linux' : 'Windows',
    // Linux m5 at 0.125 per normalized unit (large = 4 units, xlarge = 8).
    ondemandPrice: linux ? (kind === 'linux-xlarge' ? 1 : 0.5) : 1,
    usage: hourly(WINDOW_HOURS, (hour) => usage[hour % usage.length] ?? 0),
  });
}

/** Whole instances an hour, repeating a pattern of 1 to 6 hours over the window. */
const usagePattern = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 });

export const streamsArbitrary = (kinds: readonly Kind[]) =>
  fc
    .array(
      fc.record({ kind: fc.constantFrom(...kinds), account: fc.constantFrom('a', 'b'), usage: usagePattern }),
      { minLength: 1, maxLength: 5 },
    )
    .map((specs) => specs.map(({ kind, account, usage }, index) => fleetStream(kind, index, account, usage)));

export type Target = 'windows-m5' | 'windows-r5' | 'linux-m5' | 'spend';

export function catalogOffer(
  target: Target,
  index: number,
  rateShare: number,
  upfrontShare: number,
  term: number,
  convertible = false,
): Offer {
  const reservationClass = convertible ? 'convertible' : 'standard';
  const unitPrice = target === 'linux-m5' ? 0.125 : 1;
  const rate = target === 'spend' ? 1 : rateShare * unitPrice;
  const scope: Offer['scope'] =
    target === 'spend'
      ? {
          kind: 'spend',
          rates: [
            { family: 'm5', discount: 1 - rateShare },
            { family: 'r5', discount: 1 - rateShare },
          ],
        }
      : target === 'linux-m5'
        ? { kind: 'family', region: 'us-east-1', family: 'm5', operatingSystem: 'Linux', tenancy: 'Shared' }
        : {
            kind: 'instance',
            region: 'us-east-1',
            instanceType: target === 'windows-r5' ? 'r5.large' : 'm5.large',
            operatingSystem: 'Windows',
            tenancy: 'Shared',
          };
  return offer({
    id: `offer-${index}`,
    contractType: target === 'spend' ? 'compute_plans' : `${reservationClass}_ris`,
    offeringClass: target === 'spend' ? '' : reservationClass,
    term: term === 8760 ? 'one_year' : 'three_year',
    scope,
    termHours: term,
    lockinHours: term,
    paymentOption: upfrontShare === 0 ? 'No Upfront' : upfrontShare === 1 ? 'All Upfront' : 'Partial Upfront',
    upfront: rate * upfrontShare * term,
    recurring: rate * (1 - upfrontShare),
    productDescription: target === 'linux-m5' ? 'Linux/UNIX' : 'Windows',
  });
}

/**
 * Catalogs of up to 8 offers, several for the same usage: per target, standard and convertible
 * reservations (savings plans: one kind), one and three years, and every payment option, each at
 * its own rate. A plan then stacks layers of several offers on one pool (docs/plan-engine.md,
 * Layers): shrunk counterexample before layers, Windows m5.large usage of 3, 1, 2, 2, 2, 1
 * instances at $1 and Compute Savings Plans at 25% off for three years and 40% off for one: High
 * Savings bought $0.75/h of the three-year plan, and once that was owned $0.6/h of the one-year
 * plan on top (layers.known-answers.test.ts).
 */
export const offersArbitrary = (targets: readonly Target[]) =>
  fc
    .uniqueArray(
      fc.record({
        target: fc.constantFrom(...targets),
        rateShare: fc.constantFrom(0.3, 0.45, 0.6, 0.75, 0.9),
        upfrontShare: fc.constantFrom(0, 0.5, 1),
        term: fc.constantFrom(8760, 26280),
        convertible: fc.boolean(),
      }),
      {
        minLength: 1,
        maxLength: 8,
        selector: ({ target, upfrontShare, term, convertible }) =>
          `${target}:${upfrontShare}:${term}:${target !== 'spend' && convertible}`,
      },
    )
    .map((specs) =>
      specs.map(({ target, rateShare, upfrontShare, term, convertible }, index) =>
        catalogOffer(target, index, rateShare, upfrontShare, term, convertible),
      ),
    );

/** Hours from the window's start: when an owned reservation runs, against the plan's time (hour 50). */
export const OWNED_SPANS = {
  // In force all along: counted.
  running: [-24, -24 + 8760],
  // In force now, ends 10 days after the plan, within the 30-day horizon: renewed, not counted.
  ending: [-24, 50 + 240],
  // Ended before the plan, though in force in the window's first day: not counted.
  ended: [-8760, 24],
  // Queued to start 5 days after the plan, within the horizon: counted.
  queued: [50 + 120, 50 + 120 + 8760],
} as const;

/** Owned reservations of the fleet's types (exact Windows, size-flexible Linux m5) at any time. */
export const ownedArbitrary = fc
  .array(
    fc.record({
      instanceType: fc.constantFrom('m5.large', 'r5.large', 'm5.xlarge'),
      account: fc.constantFrom('a', 'b'),
      quantity: fc.integer({ min: 1, max: 4 }),
      rate: fc.constantFrom(0.4, 0.6),
      span: fc.constantFrom(...(Object.keys(OWNED_SPANS) as (keyof typeof OWNED_SPANS)[])),
    }),
    { maxLength: 3 },
  )
  .map((specs) =>
    specs.map(({ instanceType, account, quantity, rate, span }, index) => {
      const [start, end] = OWNED_SPANS[span];
      return commitment({
        // Bought when it started, or (queued) a day before the plan: before anything the plan buys.
        purchasedAt: at(span === 'queued' ? 26 : start),
        id: `owned-${index}`,
        accountId: account,
        instanceType,
        operatingSystem: instanceType === 'm5.xlarge' ? 'Linux' : 'Windows',
        quantity,
        recurringCost: quantity * rate,
        start: at(start),
        end: at(end),
        lockinEnd: at(end),
      });
    }),
  );

export function planInput(
  streams: UsageStream[],
  offers: Offer[],
  commitments: ExistingCommitment[],
): EngineInput {
  return engineInput({ hours: WINDOW_HOURS, streams, offers, commitments, createdAt: PLAN_TIME });
}

/** What the processor owns once the plan's selected lines are bought at the plan's time. */
export function boughtCommitments(planId: string, lineItems: readonly LineItem[], offers: readonly Offer[]) {
  const catalog: PurchaseCatalog = {
    offerById: (id) => offers.find((each) => each.id === id),
    pricedInstances: () => M5_SIZES,
  };
  const records = purchaseRecordsOf(
    { orgId: 'org', planId, provider: 'aws', lineItems },
    catalog,
    (plan, line) => `${plan}:${line}`,
    PLAN_TIME,
  );
  return records.map((record) => {
    const bought = catalog.offerById(record.offerId) as Offer;
    const completion = handCompletionOf(record, bought, catalog, record.quantity, `ref-${record.id}`);
    return commitmentOf({ ...record, ...completion, status: 'completed', completedAt: PLAN_TIME }, bought);
  });
}
