/**
 * Savings-plan lines: after the plan's reservations, per account, the spend offer of greatest total
 * value over the account's eligible residual usage (highest discount first). Quantities are chosen
 * by the same rule as reservations, over the levels where the coverage curve bends: the observed
 * hourly commitment needed to cover each hour's eligible usage, tier by tier (DESIGN §7: "candidate
 * levels taken from the observed hourly spend"). Between two such levels Cov is linear, so the best
 * level is the exact optimum over all real commitment amounts. One spend line per account at most.
 *
 * Across profiles, an account whose residual did not change keeps its curves, and its coverage
 * when the chosen line is the same.
 */
import { breakpoints, buildCurve, type CoverageCurve } from './coverage-curve';
import { type CoveragePool, tierAmounts } from './coverage-pool';
import { coverLine, type LineCoverage } from './line-coverage';
import type { Offer } from './model';
import { bestOffer, type OfferChoice } from './offer-choice';
import type { PlannedLine } from './planned-line';
import type { PlanningContext, SpendTable } from './planning-context';
import { levelLadder, type OfferEconomics, type QuantityLadder } from './quantity';
import { fullRange } from './window-time';

interface SpendCurve {
  readonly table: SpendTable;
  readonly pool: CoveragePool;
  readonly amounts: readonly Float64Array[];
  readonly curve: CoverageCurve;
  readonly ladder: QuantityLadder;
}

interface AccountState {
  readonly curves: readonly SpendCurve[];
  coverage: LineCoverage | null;
}

export interface SavingsPlanStage {
  /**
   * The savings-plan lines of one profile and what they cover. `residual`: per stream, the usage
   * left after existing commitments and the profile's reservations (read, not changed).
   */
  apply(
    residual: readonly Float64Array[],
    economicsOf: (offer: Offer) => OfferEconomics,
    changedAccounts: ReadonlySet<string>,
  ): LineCoverage[];
}

function spendCurves(
  context: PlanningContext,
  accountId: string,
  residual: readonly Float64Array[],
): SpendCurve[] {
  const range = fullRange(context.input.window);
  const curves: SpendCurve[] = [];
  for (const table of context.spendTables) {
    const pool = context.spendPool(accountId, table);
    if (!pool) continue;
    const amounts = tierAmounts(pool, residual, range);
    const curve = buildCurve(
      pool.tiers.map((tier) => tier.value),
      amounts,
    );
    curves.push({ table, pool, amounts, curve, ladder: levelLadder(breakpoints(curve)) });
  }
  return curves;
}

export function savingsPlanStage(context: PlanningContext): SavingsPlanStage {
  const accounts = new Map<string, AccountState>();
  const range = fullRange(context.input.window);
  return {
    apply(residual, economicsOf, changedAccounts) {
      const coverages: LineCoverage[] = [];
      if (context.spendTables.length === 0) return coverages;
      for (const accountId of context.accountStreams.keys()) {
        let state = accounts.get(accountId);
        if (!state || changedAccounts.has(accountId)) {
          state = { curves: spendCurves(context, accountId, residual), coverage: null };
          accounts.set(accountId, state);
        }
        let best: (OfferChoice & { readonly spend: SpendCurve }) | null = null;
        for (const spend of state.curves) {
          const choice = bestOffer(spend.curve, spend.ladder, spend.table.offers, economicsOf);
          if (choice && (!best || choice.value > best.value)) best = { ...choice, spend };
        }
        if (!best) continue;
        const { offer, quantity, spend } = best;
        const line: PlannedLine = { offer, accountId, pool: spend.pool, quantity, amounts: spend.amounts };
        const previous = state.coverage;
        state.coverage =
          previous && previous.line.offer === offer && previous.line.quantity === quantity
            ? { ...previous, line }
            : coverLine(line, residual, range, { readOnly: true });
        coverages.push(state.coverage);
      }
      return coverages;
    },
  };
}
