/**
 * Line and plan figures (docs/plan-engine.md, Figures). Per line item, over the lookback with q
 * selected units (all money per hour unless named a total; monthly = hourly x 730; the term is T
 * hours, so T / 730 months):
 *   covered_ondemand_cost = Cov(q)   (one tier of price p: p * mean_t min(R[t], q))
 *   after_amortized_cost  = q * r,   r = upfront / T + recurring
 *   recurring_cost        = q * recurring
 *   upfront_cost          = q * upfront                                  (a total)
 *   fee                   = fee_rate * max(0, covered_ondemand_cost - after_amortized_cost)
 *   savings               = covered_ondemand_cost - after_amortized_cost - fee
 *   total_savings         = savings * T
 *   monthly_cost          = (after_amortized_cost + fee) * 730
 *   total_cost            = q * (upfront + recurring * T) + fee * T       (a total, fee included)
 *                         = monthly_cost * T / 730
 *   minimum commitment    = q * (upfront + recurring * L)                  (the lock-in exposure)
 *   discount_rate         = 100 * (1 - (r + fee_rate * max(0, p - r)) / p), p the on-demand price
 *                           per unit of the covered usage (covered value / covered units: the price
 *                           itself for one price): the discount of a fully used unit, net of the fee
 *   breakeven_hours       = breakeven.ts: hours of covered usage after which walking away leaves
 *                           the org ahead, against the lock-in L
 * Plan (sums over selected line items, except the "before" figures, which are provider-wide):
 *   before_cost     = before_ondemand + before_reserved
 *   after_cost      = before_cost - covered_ondemand + amortized + fee
 *   savings         = before_cost - after_cost  (= sum of line savings)
 *   coverage        = (on-demand value covered by existing commitments + covered_ondemand)
 *                     / on-demand value of all usage
 *   breakeven_hours = the break-even of all its lines together
 */

import { effectiveRate } from '../curves/quantity';
import type { Offer } from '../shapes/model';
import type { CommitmentPlan } from '../shapes/plan-shapes';
import { HOURS_PER_MONTH } from '../shapes/window-time';
import { breakevenHours } from './breakeven';

export interface LineFigures {
  readonly quantity: number;
  readonly coveredOndemand: number;
  /** Mean pool units used per hour. */
  readonly coveredUnits: number;
  readonly amortized: number;
  readonly recurring: number;
  /** Total upfront payment. */
  readonly upfront: number;
  /** Upfront spread over the term, per hour: q * upfront / T. */
  readonly upfrontHourly: number;
  readonly fee: number;
  readonly savings: number;
  readonly totalSavings: number;
  /** (amortized + fee) x 730. */
  readonly monthlyCost: number;
  /** Everything paid over the term, fee included: monthlyCost x T / 730. */
  readonly totalCost: number;
  readonly lockinHours: number;
  readonly termHours: number;
  readonly minimumCommitment: number;
  readonly discountRate: number;
  readonly breakevenHours: number;
}

/** `coveredOndemand` and `coveredUnits`: per-hour means over the lookback. */
export function lineFigures(
  offer: Offer,
  quantity: number,
  coveredOndemand: number,
  coveredUnits: number,
): LineFigures {
  const rate = effectiveRate(offer);
  const amortized = quantity * rate;
  const fee = offer.feeRate * Math.max(0, coveredOndemand - amortized);
  const savings = coveredOndemand - amortized - fee;
  const upfront = quantity * offer.upfront;
  const recurring = quantity * offer.recurring;
  const pricePerUnit = coveredUnits > 0 ? coveredOndemand / coveredUnits : 0;
  // What a fully used unit costs an hour: its rate and the fee on what it saves.
  const netRate = rate + offer.feeRate * Math.max(0, pricePerUnit - rate);
  const terms = {
    coveredOndemand,
    fee,
    upfront,
    recurring,
    lockinHours: offer.lockinHours,
    termHours: offer.termHours,
  };
  return {
    ...terms,
    quantity,
    coveredUnits,
    amortized,
    upfrontHourly: upfront / offer.termHours,
    savings,
    totalSavings: savings * offer.termHours,
    monthlyCost: (amortized + fee) * HOURS_PER_MONTH,
    totalCost: upfront + (recurring + fee) * offer.termHours,
    minimumCommitment: upfront + recurring * offer.lockinHours,
    // No covered usage: no price to compare with, reported as no discount.
    discountRate: pricePerUnit > 0 ? 100 * (1 - netRate / pricePerUnit) : 0,
    breakevenHours: breakevenHours([terms]),
  };
}

/** Provider-wide figures of the usage and the commitments owned today, per hour over the lookback. */
export interface PortfolioTotals {
  /** On-demand value of all usage. */
  readonly ondemandValue: number;
  /** On-demand value of the usage left after existing commitments (before_ondemand). */
  readonly residualValue: number;
  /** Amortized cost of the existing commitments (before_reserved). */
  readonly existingCost: number;
}

/** The plan's figures: every number of the v1 plan shape. */
export type PlanFigures = Omit<
  CommitmentPlan,
  'id' | 'name' | 'org_id' | 'created_at' | 'is_calculating' | 'status' | 'max_term' | 'description'
>;

/** Existing-commitment coverage as a fraction of the on-demand value of all usage. */
export function currentCoverage(totals: PortfolioTotals): number {
  return totals.ondemandValue > 0 ? (totals.ondemandValue - totals.residualValue) / totals.ondemandValue : 0;
}

export function planFigures(lines: readonly LineFigures[], totals: PortfolioTotals): PlanFigures {
  const sum = (pick: (line: LineFigures) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const covered = sum((line) => line.coveredOndemand);
  const amortized = sum((line) => line.amortized);
  const fee = sum((line) => line.fee);
  const beforeCost = totals.residualValue + totals.existingCost;
  const afterCost = beforeCost - covered + amortized + fee;
  const savings = sum((line) => line.savings);
  const existingCovered = totals.ondemandValue - totals.residualValue;
  return {
    covered_ondemand_cost_hourly: covered,
    before_ondemand_cost_hourly: totals.residualValue,
    before_reserved_cost_hourly: totals.existingCost,
    amortized_cost_hourly: amortized,
    recurring_cost_hourly: sum((line) => line.recurring),
    upfront_cost_hourly: sum((line) => line.upfrontHourly),
    before_cost_hourly: beforeCost,
    after_cost_hourly: afterCost,
    // Everything the plan's commitments cost per hour: amortized cost plus the service's fee.
    total_cost_hourly: amortized + fee,
    savings_hourly: savings,
    fee_hourly: fee,
    commitment_coverage:
      totals.ondemandValue > 0 ? Math.min(1, (existingCovered + covered) / totals.ondemandValue) : 0,
    minimum_commitment_cost: sum((line) => line.minimumCommitment),
    breakeven_hours: breakevenHours(lines),
    total_savings: sum((line) => line.totalSavings),
    monthly_savings: savings * HOURS_PER_MONTH,
    total_monthly_before_cost: beforeCost * HOURS_PER_MONTH,
  };
}
