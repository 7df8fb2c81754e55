/**
 * Savings-plan lines: after the plan's reservations, per sharing key (the whole org, or each account
 * under `account` sharing), the spend offer of greatest total value over the eligible residual usage
 * it shares (highest discount first). Quantities are chosen
 * by the same rule as reservations, over the levels where the coverage curve bends: the observed
 * hourly commitment needed to cover each hour's eligible usage, tier by tier (docs/plan-engine.md: "candidate
 * levels taken from the observed hourly spend"). Between two such levels Cov is linear, so the best
 * level is the exact optimum over all real commitment amounts. Ties go to the spend table first in
 * key order, then to the lowest offer id. Then, on what that line leaves, the offers of the spend
 * tables whose pools tier the same streams alike (layers.ts), while one is worth buying there: a
 * stack of layers per sharing key.
 *
 * The curves are summed per coverage group (spend-cells.ts), not per stream; the line chosen is
 * applied to the streams. Pools are tried in decreasing order of an upper bound of what their
 * offers are worth (valueBound): once the bound falls below the best value found, no further
 * curve is needed. Across profiles, a pool none of whose groups is covered differently keeps its
 * curve, and a sharing key its coverage when its lines and their pools' groups are the same.
 */

import type { CoveragePool } from '../groups/coverage-pool';
import { cellAmounts, coverableValue, type SpendCells } from '../groups/spend-cells';
import type { Offer } from '../shapes/model';
import { fullRange } from '../shapes/window-time';
import { type LineCoverage, lineShares } from '../tallies/line-coverage';
import { breakpoints, buildCurve, type CoverageCurve } from './coverage-curve';
import { amountsAbove, samePoolTiers } from './layers';
import { bestOffer, type OfferChoice } from './offer-choice';
import type { PlannedLine } from './planned-line';
import type { PlanningContext, SpendTable } from './planning-context';
import { levelLadder, type OfferEconomics, type QuantityLadder, valueBound } from './quantity';
import type { ReservationResult } from './reservation-stage';
import { instancePlanRoom, ladderWithin } from './spend-room';

/** A bound this much above the best value still counts as below it: both carry rounding. */
const BOUND_MARGIN = 1e-9;

interface SpendCurve {
  /** cellAmounts over the window. */
  readonly amounts: readonly Float64Array[];
  readonly curve: CoverageCurve;
  readonly ladder: QuantityLadder;
}

interface SpendPoolState {
  /** Position of the table in key order (breaks ties). */
  readonly index: number;
  readonly table: SpendTable;
  readonly pool: CoveragePool;
  readonly cells: SpendCells;
  /** Null until needed, and again once the pool's groups are covered differently. */
  spend: SpendCurve | null;
  coverable: number;
}

interface SharingState {
  readonly pools: readonly SpendPoolState[];
  /** The stack of the previous profile, bottom first (empty: none). */
  coverages: readonly LineCoverage[];
}

interface Candidate extends OfferChoice {
  readonly state: SpendPoolState;
  /** The pool's tier amounts the line is applied to: after the reservations and the layers below it. */
  readonly amounts: readonly Float64Array[];
}

export interface SavingsPlanResult {
  readonly coverages: readonly LineCoverage[];
  /** The coverages new in this profile, their tallies still to fill (tallyLines). */
  readonly fresh: readonly LineCoverage[];
}

export interface SavingsPlanStage {
  /** The savings-plan lines of one profile and what they cover, after the profile's reservations. */
  apply(reserved: ReservationResult, economicsOf: (offer: Offer) => OfferEconomics): SavingsPlanResult;
}

const changedBy = (cells: SpendCells, reserved: ReservationResult) => {
  for (const group of cells.groups) if (reserved.changedPools.has(group)) return true;
  return false;
};

export function savingsPlanStage(context: PlanningContext): SavingsPlanStage {
  const sharings = new Map<string, SharingState>();
  const range = fullRange(context.input.window);
  const hours = context.portfolio.hours;

  const sharingState = (
    sharing: string,
    reserved: ReservationResult,
    cellSums: Map<Float64Array, number>,
  ): SharingState => {
    const sharesOf = (group: CoveragePool) =>
      reserved.coverageOf.get(group)?.map((coverage) => coverage.shares);
    let state = sharings.get(sharing);
    if (!state) {
      const pools: SpendPoolState[] = [];
      context.spendTables.forEach((table, index) => {
        const pool = context.spendPool(sharing, table);
        if (!pool) return;
        const cells = context.spendCells(pool);
        pools.push({
          index,
          table,
          pool,
          cells,
          spend: null,
          coverable: coverableValue(cells, sharesOf, hours, cellSums),
        });
      });
      state = { pools, coverages: [] };
      sharings.set(sharing, state);
      return state;
    }
    for (const pool of state.pools) {
      if (!changedBy(pool.cells, reserved)) continue;
      pool.spend = null;
      pool.coverable = coverableValue(pool.cells, sharesOf, hours, cellSums);
    }
    return state;
  };

  const spendCurve = (state: SpendPoolState, reserved: ReservationResult): SpendCurve => {
    if (!state.spend) {
      const { pool, cells } = state;
      const amounts = cellAmounts(
        pool,
        cells,
        (group) => reserved.coverageOf.get(group)?.map((coverage) => coverage.shares),
        range,
      );
      const curve = buildCurve(
        pool.tiers.map((tier) => tier.value),
        amounts,
      );
      state.spend = { amounts, curve, ladder: levelLadder(breakpoints(curve)) };
    }
    return state.spend;
  };

  /** The best offer over the sharing key's pools, trying them by decreasing bound. */
  const bestLine = (
    shared: SharingState,
    reserved: ReservationResult,
    economicsOf: (offer: Offer) => OfferEconomics,
  ): Candidate | null => {
    const bounded = shared.pools.map((state) => {
      const highest = state.pool.tiers[0]?.value ?? 0;
      let bound = 0;
      for (const offer of state.table.offers) {
        bound = Math.max(bound, valueBound(economicsOf(offer), state.coverable, highest));
      }
      return { state, bound };
    });
    bounded.sort((a, b) => b.bound - a.bound || a.state.index - b.state.index);
    let best: Candidate | null = null;
    for (const { state, bound } of bounded) {
      if (bound <= 0 || (best && bound * (1 + BOUND_MARGIN) < best.value)) break;
      const { curve, ladder, amounts } = spendCurve(state, reserved);
      let choice = bestOffer(curve, ladder, state.table.offers, economicsOf);
      // An EC2 Instance Savings Plan is billed before owned Compute Savings Plans: only their room.
      const room = choice ? instancePlanRoom(context.portfolio, state.table, state.pool, reserved) : Infinity;
      if (choice && choice.quantity > room)
        choice = bestOffer(curve, ladderWithin(ladder, room), state.table.offers, economicsOf);
      if (
        choice &&
        (!best ||
          choice.value > best.value ||
          (choice.value === best.value && state.index < best.state.index))
      ) {
        best = { ...choice, state, amounts };
      }
    }
    return best;
  };

  /**
   * The best line of another offer on what `below` (the stack so far, bottom first) leaves, over
   * the pools tiered like the bottom one. On-demand dollars are the same in every such pool, so
   * what the stack covered bounds what is left to any of them (valueBound).
   */
  const bestLayer = (
    shared: SharingState,
    below: readonly LineCoverage[],
    reserved: ReservationResult,
    economicsOf: (offer: Offer) => OfferEconomics,
  ): Candidate | null => {
    const bottom = (below[0] as LineCoverage).line.pool;
    let coveredBelow = 0;
    for (const coverage of below) coveredBelow += coverage.coveredValue / hours;
    const bought = new Set(below.map((coverage) => coverage.line.offer));
    let best: Candidate | null = null;
    for (const state of shared.pools) {
      if (!samePoolTiers(bottom, state.pool)) continue;
      // Layers share the room of the owned Compute Savings Plans they would be billed before:
      // an instance plan with such room is never a layer (spend-room.ts).
      if (instancePlanRoom(context.portfolio, state.table, state.pool, reserved) < Infinity) continue;
      const offers = state.table.offers.filter((offer) => !bought.has(offer));
      const highest = state.pool.tiers[0]?.value ?? 0;
      // What is left to cover, with room for the rounding of both sums.
      const left = Math.max(0, state.coverable - coveredBelow) + BOUND_MARGIN * state.coverable;
      let bound = 0;
      for (const offer of offers) bound = Math.max(bound, valueBound(economicsOf(offer), left, highest));
      if (bound <= 0 || (best && bound * (1 + BOUND_MARGIN) < best.value)) continue;
      const amounts = amountsAbove(
        spendCurve(state, reserved).amounts,
        below.map((coverage) => coverage.shares),
      );
      const curve = buildCurve(
        state.pool.tiers.map((tier) => tier.value),
        amounts,
      );
      const choice = bestOffer(curve, levelLadder(breakpoints(curve)), offers, economicsOf);
      if (choice && (!best || choice.value > best.value)) best = { ...choice, state, amounts };
    }
    return best;
  };

  /** The sharing key's stack: `best` at the bottom, then layers while one is worth buying. */
  const stackOf = (
    sharing: string,
    shared: SharingState,
    best: Candidate,
    reserved: ReservationResult,
    economicsOf: (offer: Offer) => OfferEconomics,
  ): LineCoverage[] => {
    const stack: LineCoverage[] = [];
    for (let choice: Candidate | null = best; choice; ) {
      const { offer, quantity, state, amounts } = choice;
      const line: PlannedLine = {
        offer,
        sharingKey: sharing,
        pool: state.pool,
        quantity,
        layer: stack.length,
        amounts,
      };
      stack.push(lineShares(line, amounts, hours));
      choice = bestLayer(shared, stack, reserved, economicsOf);
    }
    return stack;
  };

  return {
    apply(reserved, economicsOf) {
      const coverages: LineCoverage[] = [];
      const fresh: LineCoverage[] = [];
      if (context.spendTables.length === 0) return { coverages, fresh };
      // Cells' sums under this profile's reservations (spend-cells.ts coverableValue).
      const cellSums = new Map<Float64Array, number>();
      for (const sharing of context.sharedStreams.keys()) {
        const shared = sharingState(sharing, reserved, cellSums);
        const best = bestLine(shared, reserved, economicsOf);
        if (!best) {
          shared.coverages = [];
          continue;
        }
        const stack = stackOf(sharing, shared, best, reserved, economicsOf);
        const previous = shared.coverages;
        const kept =
          previous.length === stack.length &&
          stack.every(({ line }, k) => {
            const before = (previous[k] as LineCoverage).line;
            return (
              before.offer === line.offer &&
              before.quantity === line.quantity &&
              before.pool === line.pool &&
              !changedBy(context.spendCells(line.pool), reserved)
            );
          });
        shared.coverages = kept
          ? previous.map((coverage, k) => ({ ...coverage, line: (stack[k] as LineCoverage).line }))
          : stack;
        if (!kept) fresh.push(...stack);
        coverages.push(...shared.coverages);
      }
      return { coverages, fresh };
    },
  };
}
