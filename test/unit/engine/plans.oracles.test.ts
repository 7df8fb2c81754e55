/**
 * Plan figures recomputed by independent oracles: a naive hour-by-hour simulation, written here
 * from the rules of docs/plan-engine.md, of what the existing commitments and the plan's line items cover.
 * It does not read what the engine summed: from the engine it takes only the line items (offer,
 * account, quantity) and compares the plan's commitment_coverage, minimum_commitment_cost and
 * breakeven_hours with what the simulation gives.
 *
 * The fleets keep one on-demand price per group unit (as the catalog prices them), so that which
 * stream of a group a unit covers does not change the value covered: the oracle needs only the
 * rules "highest value first" (savings plans: highest discount first) and "in proportion within a
 * tier", not the engine's pools.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type {
  CommitmentSharing,
  ExistingCommitment,
  Offer,
  SpendRate,
  UsageStream,
} from '../../../shared/domain/engine/shapes/model';
import type { LineItem } from '../../../shared/domain/engine/shapes/plan-shapes';
import { breakevenByWalking } from './breakeven-oracle';
import { commitment, engineInput, instanceScope, offer, stream } from './builders';

const HOUR_MS = 3_600_000;

/** What a stream kind is: its instance type, OS, price and size in its group's units. */
const KINDS = {
  'windows-m5': { instanceType: 'm5.large', operatingSystem: 'Windows', price: 1, units: 1 },
  'windows-r5': { instanceType: 'r5.large', operatingSystem: 'Windows', price: 1.5, units: 1 },
  'linux-large': { instanceType: 'm5.large', operatingSystem: 'Linux', price: 0.5, units: 4 },
  'linux-xlarge': { instanceType: 'm5.xlarge', operatingSystem: 'Linux', price: 1, units: 8 },
} as const;
type Kind = keyof typeof KINDS;

/** The group a kind is in (Linux m5 sizes share the family group). */
const groupOf = (kind: Kind) => (kind.startsWith('linux') ? 'linux-m5' : kind);

const DISCOUNT_KEYS = { m5: 0, r5: 1 } as const;

interface Fleet {
  readonly hours: number;
  readonly sharing: CommitmentSharing;
  readonly streams: readonly { kind: Kind; account: string; usage: number[] }[];
  readonly offers: readonly Offer[];
  readonly commitments: readonly ExistingCommitment[];
}

/** The plans' clock (engineInput's createdAt) and the default renewal horizon, 30 days, after it. */
const PLAN_TIME = Date.parse(engineInput({ hours: 0 }).createdAt);
const HORIZON_END = PLAN_TIME + 30 * 24 * HOUR_MS;
const fromPlanTime = (hour: number) => new Date(PLAN_TIME + hour * HOUR_MS).toISOString();

const fleetArbitrary: fc.Arbitrary<Fleet> = fc.integer({ min: 1, max: 24 }).chain((hours) =>
  fc.record({
    hours: fc.constant(hours),
    sharing: fc.constantFrom<CommitmentSharing>('organization', 'account'),
    streams: fc.array(
      fc.record({
        kind: fc.constantFrom<Kind>('windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge'),
        account: fc.constantFrom('a', 'b'),
        usage: fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 4 }),
            fc.integer({ min: 0, max: 240 }).map((minutes) => minutes / 60),
          ),
          { minLength: hours, maxLength: hours },
        ),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    offers: fc
      .record({
        share: fc.double({ min: 0.3, max: 1, noNaN: true }),
        upfrontShare: fc.constantFrom(0, 0.5, 1),
        feeRate: fc.constantFrom(0, 0.2),
        guaranteed: fc.boolean(),
        // Published discounts are whole percents or so: no two a rounding error apart.
        discounts: fc
          .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }))
          .map(([m5, r5]) => [m5 * 0.05, r5 * 0.05] as const),
        withSpend: fc.boolean(),
      })
      .map(({ share, upfrontShare, feeRate, guaranteed, discounts, withSpend }) => {
        const term = guaranteed ? 26280 : 8760;
        const priced = (id: string, unitPrice: number, scope: Offer['scope']) => {
          const rate = share * unitPrice;
          return offer({
            id,
            scope,
            termHours: term,
            lockinHours: guaranteed ? 720 : term,
            upfront: rate * upfrontShare * term,
            recurring: rate * (1 - upfrontShare),
            feeRate,
          });
        };
        const offers = [
          priced('windows-m5', 1, instanceScope()),
          priced('windows-r5', 1.5, instanceScope({ instanceType: 'r5.large' })),
          priced('linux-m5', 0.125, {
            kind: 'family',
            region: 'us-east-1',
            family: 'm5',
            operatingSystem: 'Linux',
            tenancy: 'Shared',
          }),
        ];
        if (!withSpend) return offers;
        const rates: SpendRate[] = [
          { family: 'm5', discount: discounts[0] },
          { family: 'r5', discount: discounts[1] },
        ];
        return [
          ...offers,
          offer({
            id: 'spend',
            contractType: 'compute_plans',
            scope: { kind: 'spend', rates },
            recurring: 1,
          }),
        ];
      }),
    commitments: fc
      .array(
        fc
          .record({
            account: fc.constantFrom('a', 'b'),
            target: fc.constantFrom('m5.large', 'r5.large', 'spend'),
            quantity: fc.integer({ min: 1, max: 3 }),
            // Hours from the plan's time: ended before it, renewed within the horizon, in force
            // past it, or queued to start before or after the horizon's end.
            startHour: fc.integer({ min: -800, max: 760 }),
            length: fc.integer({ min: 1, max: 1600 }),
            recurringCost: fc.double({ min: 0, max: 2, noNaN: true }),
            // An m5.large reservation of either platform; an r5.large one is Windows.
            platform: fc.constantFrom('Linux', 'Windows'),
          })
          .map(({ account, target, quantity, startHour, length, recurringCost, platform }) =>
            commitment({
              id: `c-${account}-${target}-${startHour}`,
              accountId: account,
              operatingSystem: target === 'spend' ? undefined : target === 'm5.large' ? platform : 'Windows',
              // Bought with no upfront, as the catalog's plan is sold (its recurring cost may be 0).
              paymentOption: target === 'spend' ? 'No Upfront' : undefined,
              contractType: target === 'spend' ? 'compute_plans' : 'standard_ris',
              instanceType: target === 'spend' ? null : target,
              quantity: target === 'spend' ? 0 : quantity,
              hourlyCommitment: target === 'spend' ? quantity / 2 : 0,
              recurringCost,
              start: fromPlanTime(startHour),
              end: fromPlanTime(startHour + length),
              lockinEnd: fromPlanTime(startHour + length),
            }),
          ),
        { maxLength: 3 },
      )
      .map((owned) => owned.map((entry, index) => ({ ...entry, id: `c-${index}` }))),
  }),
);

/** What the oracle knows of a stream: its kind, account and usage, and its residual in the hour at hand. */
interface Member {
  readonly kind: Kind;
  readonly account: string;
  readonly usage: readonly number[];
  left: number;
}

/**
 * Covers `quantity` group units of the members (all of one price per unit) in the hour: the
 * same share of every member's residual. Returns the on-demand dollars covered.
 */
function coverGroup(members: readonly Member[], quantity: number): number {
  let units = 0;
  for (const member of members) units += member.left * KINDS[member.kind].units;
  if (units <= 0 || quantity <= 0) return 0;
  const covered = Math.min(units, quantity);
  const share = covered / units;
  let value = 0;
  for (const member of members) {
    const taken = member.left * share;
    value += taken * KINDS[member.kind].price;
    member.left -= taken;
  }
  return value;
}

/** Covers `dollars` of commitment per hour at plan rates, highest discount first. Returns on-demand dollars covered. */
function coverSpend(members: readonly Member[], discounts: readonly number[], dollars: number): number {
  const eligible = members.map((member) => ({
    member,
    discount: discounts[
      DISCOUNT_KEYS[KINDS[member.kind].instanceType.startsWith('m5') ? 'm5' : 'r5']
    ] as number,
  }));
  const byDiscount = [...new Set(eligible.map((entry) => entry.discount))].sort((x, y) => y - x);
  let left = dollars;
  let value = 0;
  for (const discount of byDiscount) {
    const tier = eligible.filter((entry) => entry.discount === discount).map((entry) => entry.member);
    let cost = 0;
    for (const member of tier) cost += member.left * KINDS[member.kind].price * (1 - discount);
    if (cost <= 0 || left <= 0) continue;
    const spent = Math.min(cost, left);
    const share = spent / cost;
    for (const member of tier) {
      value += member.left * share * KINDS[member.kind].price;
      member.left -= member.left * share;
    }
    left -= spent;
  }
  return value;
}

/**
 * A plan counts an owned commitment in every hour of the window when it is in force once the
 * renewal horizon has passed (docs/plan-engine.md), whatever the window's dates.
 */
const countsAtPlanTime = (owned: ExistingCommitment) =>
  Date.parse(owned.start) <= HORIZON_END && HORIZON_END < Date.parse(owned.end);

/** Per hour, the figures the oracle needs: on-demand dollars of all usage, covered by existing commitments, by the plan's lines. */
function simulate(fleet: Fleet, lineItems: readonly LineItem[]) {
  const sharingOf = (account: string) => (fleet.sharing === 'account' ? account : 'org');
  const spendOffer = fleet.offers.find((entry) => entry.scope.kind === 'spend');
  const discounts =
    spendOffer?.scope.kind === 'spend' ? spendOffer.scope.rates.map((rate) => rate.discount) : null;
  // Streams without usage are not in any group (they change nothing).
  const members: Member[] = fleet.streams
    .filter((entry) => entry.usage.some((units) => units > 0))
    .map((entry) => ({ ...entry, left: 0 }));
  const inGroup = (group: string, sharing: string) =>
    members.filter((member) => groupOf(member.kind) === group && sharingOf(member.account) === sharing);
  const inSharing = (sharing: string) => members.filter((member) => sharingOf(member.account) === sharing);

  // Existing reservations: an m5.large covers the Linux m5 family (4 units) when that group
  // exists, else the exact m5.large group; r5.large its exact group. Pools of the same group add up.
  const reservationPools = new Map<
    string,
    { members: Member[]; commitments: ExistingCommitment[]; units: number }
  >();
  const spendPools = new Map<string, ExistingCommitment[]>();
  for (const owned of fleet.commitments) {
    const sharing = sharingOf(owned.accountId);
    if (owned.instanceType === null) {
      spendPools.set(sharing, [...(spendPools.get(sharing) ?? []), owned]);
      continue;
    }
    // A reservation covers usage of its platform only: a Linux m5.large one the Linux m5 family.
    const family = owned.instanceType === 'm5.large' && owned.operatingSystem === 'Linux';
    const group = family ? 'linux-m5' : owned.instanceType === 'm5.large' ? 'windows-m5' : 'windows-r5';
    const key = `${sharing}/${group}`;
    const pool = reservationPools.get(key) ?? {
      members: inGroup(group, sharing),
      commitments: [],
      units: family ? 4 : 1,
    };
    pool.commitments.push(owned);
    reservationPools.set(key, pool);
  }

  let total = 0;
  let existing = 0;
  let covered = 0;
  const coveredByLine = lineItems.map(() => 0);
  for (let hour = 0; hour < fleet.hours; hour++) {
    for (const member of members) {
      member.left = member.usage[hour] as number;
      total += member.left * KINDS[member.kind].price;
    }
    for (const pool of reservationPools.values()) {
      let quantity = 0;
      for (const owned of pool.commitments)
        if (countsAtPlanTime(owned)) quantity += owned.quantity * pool.units;
      existing += coverGroup(pool.members, quantity);
    }
    for (const [sharing, owned] of spendPools) {
      let dollars = 0;
      for (const entry of owned) if (countsAtPlanTime(entry)) dollars += entry.hourlyCommitment;
      if (discounts) existing += coverSpend(inSharing(sharing), discounts, dollars);
    }
    // The plan's lines: reservations, then savings plans, on what is left.
    lineItems.forEach((item, line) => {
      if (item.offer_id === 'spend') return;
      const value = coverGroup(
        inGroup(item.offer_id === 'linux-m5' ? 'linux-m5' : item.offer_id, sharingOf(item.account_id)),
        item.selected_quantity,
      );
      coveredByLine[line] = (coveredByLine[line] as number) + value;
      covered += value;
    });
    lineItems.forEach((item, line) => {
      if (item.offer_id !== 'spend') return;
      const value = coverSpend(
        inSharing(sharingOf(item.account_id)),
        discounts ?? [],
        item.selected_commitment,
      );
      coveredByLine[line] = (coveredByLine[line] as number) + value;
      covered += value;
    });
  }
  return { total, existing, covered, coveredByLine };
}

/** q * (upfront + recurring * hours), paid hour by hour. */
function paidOver(item: LineItem, offers: readonly Offer[], hours: (offer: Offer) => number): number {
  const bought = offers.find((entry) => entry.id === item.offer_id) as Offer;
  let paid = item.selected_quantity * bought.upfront;
  for (let hour = 0; hour < hours(bought); hour++) paid += item.selected_quantity * bought.recurring;
  return paid;
}

const close = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));

describe('plan figures against an hour-by-hour oracle', () => {
  it('gives commitment_coverage, minimum_commitment_cost and breakeven_hours as the simulation does', () => {
    fc.assert(
      fc.property(fleetArbitrary, (fleet) => {
        // Prepare
        const streams: UsageStream[] = fleet.streams.map((entry, index) =>
          stream({
            resourceId: `r-${index}`,
            accountId: entry.account,
            instanceType: KINDS[entry.kind].instanceType,
            operatingSystem: KINDS[entry.kind].operatingSystem,
            ondemandPrice: KINDS[entry.kind].price,
            usage: entry.usage,
          }),
        );
        const input = engineInput({
          hours: fleet.hours,
          streams,
          offers: [...fleet.offers],
          commitments: [...fleet.commitments],
          sharing: fleet.sharing,
        });

        // Act
        const plans = computePlans(input).plans;

        // Assess
        for (const { plan, lineItems } of plans) {
          const { total, existing, covered, coveredByLine } = simulate(fleet, lineItems);
          const coverage = total > 0 ? Math.min(1, (existing + covered) / total) : 0;
          close(plan.commitment_coverage, coverage);
          const minimum = lineItems.reduce(
            (sum, item) => sum + paidOver(item, fleet.offers, (o) => o.lockinHours),
            0,
          );
          close(plan.minimum_commitment_cost, minimum);
          const walked = lineItems.map((item, line) => ({
            coveredPerHour: (coveredByLine[line] as number) / fleet.hours,
            quantity: item.selected_quantity,
            offer: fleet.offers.find((entry) => entry.id === item.offer_id) as Offer,
          }));
          close(plan.breakeven_hours, breakevenByWalking(walked));
          walked.forEach((line, k) => {
            close((lineItems[k] as LineItem).breakeven_hours, breakevenByWalking([line]));
          });
        }
      }),
      { numRuns: 150 },
    );
  });
});
