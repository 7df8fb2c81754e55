/**
 * Everything planning needs that no plan profile changes: the portfolio after existing commitments,
 * the provider's offers indexed by what they cover, and (built once, on first use) each group's pool
 * and coverage curve. The three default plans share it.
 */
import { buildPool, type CoveragePool, type PoolTier, tierAmounts } from '../groups/coverage-pool';
import { type CoverageGroup, offerScopeKey, sharingKey } from '../groups/groups';
import type { ResidualArena } from '../groups/residual-arena';
import { type CellSources, type GroupPlace, type SpendCells, spendCells } from '../groups/spend-cells';
import {
  rateTableKey,
  type SubjectDiscounts,
  type SubjectStreams,
  spendPool,
  subjectDiscounts,
  subjectStreams,
} from '../groups/spend-pools';
import { roomBeforeOwned } from '../portfolio/owned-room';
import { buildPortfolio, type Portfolio } from '../portfolio/portfolio';
import type { EngineInput } from '../shapes/engine-input';
import type { Offer, SpendRate } from '../shapes/model';
import { DEFAULT_RENEWAL_HORIZON_DAYS, type PlanClock, planClock } from '../shapes/plan-time';
import { fullRange, parseInstant } from '../shapes/window-time';
import { buildCurve, type CoverageCurve } from './coverage-curve';

/** Spend offers sharing one rate table: they cover the same usage, at different prices and terms. */
export interface SpendTable {
  readonly key: string;
  readonly rates: readonly SpendRate[];
  readonly offers: readonly Offer[];
}

export interface GroupCurve {
  readonly pool: CoveragePool;
  /** Tier amounts of the residual after existing commitments, over the window. */
  readonly amounts: readonly Float64Array[];
  readonly curve: CoverageCurve;
}

export interface PlanningContext {
  readonly input: EngineInput;
  readonly portfolio: Portfolio;
  /** The plan's clock (plan-time.ts). */
  readonly clock: PlanClock;
  readonly offersById: ReadonlyMap<string, Offer>;
  /** Reservation offers by scope key, lowest id first. */
  readonly reservationOffers: ReadonlyMap<string, readonly Offer[]>;
  readonly spendTables: readonly SpendTable[];
  /** Stream indices per sharing key (groups.ts sharingKey), keys in sorted order. */
  readonly sharedStreams: ReadonlyMap<string, readonly number[]>;
  groupCurve(group: CoverageGroup): GroupCurve;
  groupPool(group: CoverageGroup): CoveragePool;
  /** The units a new reservation stack of the group may take: what owned savings plans leave (owned-room.ts). */
  reservationRoom(group: CoverageGroup): number;
  /** The streams of the sharing key that the table covers; null when none is eligible. */
  spendPool(sharing: string, table: SpendTable): CoveragePool | null;
  /** The same pool summed per group (spend-cells.ts), for choosing quantities. */
  spendCells(pool: CoveragePool): SpendCells;
}

const byId = (a: Offer, b: Offer) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `arena`: where the residuals after existing commitments go (residual-arena.ts); fresh when absent. */
export function buildPlanningContext(input: EngineInput, arena?: ResidualArena): PlanningContext {
  const offers = input.offers.filter((offer) => offer.provider === input.provider).sort(byId);
  const clock = planClock(
    parseInstant(input.createdAt, 'createdAt'),
    input.renewalHorizonDays ?? DEFAULT_RENEWAL_HORIZON_DAYS,
  );
  const portfolio = buildPortfolio(arena ? { ...input, arena, clock } : { ...input, clock });

  const reservationOffers = new Map<string, Offer[]>();
  const spendTables = new Map<string, { key: string; rates: readonly SpendRate[]; offers: Offer[] }>();
  // A catalog's offers of one table share its rates array: its key (the whole table as text) is
  // worked out once per array, not once per offer.
  const tableKeys = new Map<readonly SpendRate[], string>();
  for (const offer of offers) {
    if (offer.scope.kind === 'spend') {
      let key = tableKeys.get(offer.scope.rates);
      if (key === undefined) {
        key = rateTableKey(offer.scope.rates);
        tableKeys.set(offer.scope.rates, key);
      }
      const table = spendTables.get(key) ?? { key, rates: offer.scope.rates, offers: [] };
      table.offers.push(offer);
      spendTables.set(key, table);
    } else {
      const key = offerScopeKey(offer) as string;
      const list = reservationOffers.get(key);
      if (list) list.push(offer);
      else reservationOffers.set(key, [offer]);
    }
  }

  const shared = new Map<string, number[]>();
  portfolio.streams.forEach((stream, index) => {
    const key = sharingKey(stream.accountId, portfolio.sharing);
    const list = shared.get(key);
    if (list) list.push(index);
    else shared.set(key, [index]);
  });
  const sharedStreams = new Map([...shared.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

  const range = fullRange(input.window);
  const groupPools = new Map<string, CoveragePool>();
  const groupAmounts = new Map<CoveragePool, Float64Array[]>();
  const groupCurves = new Map<string, GroupCurve>();
  // Per spend table (its key is the whole rate table as text: too long to hash on every call), its
  // discount per rate subject and its pool per sharing key.
  const tableDiscounts = new Map<SpendTable, SubjectDiscounts>();
  const spendPools = new Map<SpendTable, Map<string, CoveragePool | null>>();
  const sharedSubjects = new Map<string, SubjectStreams>();
  const candidatesOf = (sharing: string): SubjectStreams => {
    let candidates = sharedSubjects.get(sharing);
    if (!candidates) {
      candidates = subjectStreams(portfolio.rateSubjects, sharedStreams.get(sharing) ?? []);
      sharedSubjects.set(sharing, candidates);
    }
    return candidates;
  };
  const cellsOfPools = new Map<CoveragePool, SpendCells>();
  const reservationRooms = new Map<string, number>();
  const groupPool = (group: CoverageGroup): CoveragePool => {
    let pool = groupPools.get(group.key);
    if (!pool) {
      const values = group.members.map((s, m) => (portfolio.prices[s] ?? 0) / (group.weights[m] ?? 1));
      pool = buildPool(group.members, group.weights, values);
      groupPools.set(group.key, pool);
    }
    return pool;
  };
  const amountsOf = (pool: CoveragePool): Float64Array[] => {
    let amounts = groupAmounts.get(pool);
    if (!amounts) {
      amounts = tierAmounts(pool, portfolio.residual, range);
      groupAmounts.set(pool, amounts);
    }
    return amounts;
  };

  let cellSources: CellSources | undefined;
  /** Built on first use: where each stream sits among the groups, and each group tier's dollars. */
  const sourcesOfCells = (): CellSources => {
    if (cellSources) return cellSources;
    const places: GroupPlace[] = [];
    const placeOf = new Int32Array(portfolio.streams.length);
    for (const group of portfolio.groups) {
      const pool = groupPool(group);
      pool.tiers.forEach((tier, groupTier) => {
        for (const s of tier.members) placeOf[s] = places.length;
        places.push({ group: pool, groupTier });
      });
    }
    const dollars: (Float64Array | undefined)[] = new Array(places.length).fill(undefined);
    cellSources = {
      places,
      placeOf,
      groupDollars(place) {
        let perHour = dollars[place];
        if (!perHour) {
          const { group, groupTier } = places[place] as GroupPlace;
          const amount = amountsOf(group)[groupTier] as Float64Array;
          const value = (group.tiers[groupTier] as PoolTier).value;
          perHour = new Float64Array(amount.length);
          for (let t = 0; t < amount.length; t++) perHour[t] = value * (amount[t] as number);
          dollars[place] = perHour;
        }
        return perHour;
      },
      prices: portfolio.prices,
      residual: portfolio.residual,
      hours: portfolio.hours,
    };
    return cellSources;
  };

  return {
    input,
    portfolio,
    clock,
    offersById: new Map(offers.map((offer) => [offer.id, offer])),
    reservationOffers,
    spendTables: [...spendTables.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    sharedStreams,
    groupPool,
    reservationRoom(group) {
      let room = reservationRooms.get(group.key);
      if (room === undefined) {
        // Rank 2: a reservation is billed before every savings plan.
        room = roomBeforeOwned(portfolio, groupPool(group), 2);
        reservationRooms.set(group.key, room);
      }
      return room;
    },
    groupCurve(group) {
      let entry = groupCurves.get(group.key);
      if (!entry) {
        const pool = groupPool(group);
        const amounts = amountsOf(pool);
        const curve = buildCurve(
          pool.tiers.map((tier) => tier.value),
          amounts,
        );
        entry = { pool, amounts, curve };
        groupCurves.set(group.key, entry);
      }
      return entry;
    },
    spendPool(sharing, table) {
      let pools = spendPools.get(table);
      if (!pools) {
        pools = new Map();
        spendPools.set(table, pools);
      }
      let pool = pools.get(sharing);
      if (pool === undefined) {
        let discounts = tableDiscounts.get(table);
        if (!discounts) {
          discounts = subjectDiscounts(portfolio.rateSubjects, table.rates);
          tableDiscounts.set(table, discounts);
        }
        pool = spendPool(portfolio.prices, portfolio.rateSubjects, candidatesOf(sharing), discounts);
        pools.set(sharing, pool);
      }
      return pool;
    },
    spendCells(pool) {
      let cells = cellsOfPools.get(pool);
      if (!cells) {
        cells = spendCells(pool, sourcesOfCells());
        cellsOfPools.set(pool, cells);
      }
      return cells;
    },
  };
}
