/**
 * Resource matches of a plan's line items over any range of hours of the same input, without
 * recomputing the plan: the items' offers and selected quantities are applied again, in the same
 * order and the same way, to the hours of the range only. Over the whole window this gives exactly
 * the plan's matches.
 */
import { ValidationError } from '../errors';
import type { CoveragePool } from './coverage-pool';
import { type EngineInput, validateEngineInput } from './engine-input';
import { groupKey, offerScopeKey, sharingKey } from './groups';
import { coverLine, type LineCoverage } from './line-coverage';
import type { LineItem } from './plan-shapes';
import { applicationOrder, isSpendLine, type PlannedLine } from './planned-line';
import { buildPlanningContext, type PlanningContext } from './planning-context';
import { buildResourceMatches, type LineResourceMatch, matchRange } from './resource-matches';
import { cellAmounts } from './spend-cells';
import { rateTableKey } from './spend-pools';
import type { HourRange } from './window-time';

/** What of a stored line item the engine needs to cover usage again. */
export type LineSelection = Pick<
  LineItem,
  'id' | 'offer_id' | 'account_id' | 'selected_quantity' | 'is_selected'
>;

/** The line to apply for an item; null when nothing in the input is left for it to cover. */
function plannedLine(context: PlanningContext, item: LineSelection): PlannedLine | null {
  const offer = context.offersById.get(item.offer_id);
  if (!offer) {
    throw new ValidationError(`Unknown offer ${item.offer_id}`, {
      offer_id: [`line item ${item.id}: unknown offer`],
    });
  }
  // The item names the account that buys it; what it covers is the usage that account shares.
  const shared = sharingKey(item.account_id, context.portfolio.sharing);
  let pool = null;
  if (offer.scope.kind === 'spend') {
    const key = rateTableKey(offer.scope.rates);
    const table = context.spendTables.find((entry) => entry.key === key);
    pool = table ? context.spendPool(shared, table) : null;
  } else {
    const group = context.portfolio.groupIndex.byKey.get(groupKey(offerScopeKey(offer) as string, shared));
    pool = group ? context.groupPool(group) : null;
  }
  return pool ? { offer, sharingKey: shared, pool, quantity: item.selected_quantity } : null;
}

/**
 * Applies lines as plans do: reservations first, each writing what it leaves of its members into
 * fresh arrays (only those streams are copied), then savings plans, which only tally, on amounts
 * summed per group like the plan's (spend-cells.ts) so that they cover the same.
 */
function coverInOrder(
  context: PlanningContext,
  lines: readonly PlannedLine[],
  range: HourRange,
): LineCoverage[] {
  const { portfolio } = context;
  const residual = [...portfolio.residual];
  const copied = new Set<number>();
  const sharesOf = new Map<CoveragePool, readonly Float64Array[]>();
  let coveredTwice = false;
  return [...lines].sort(applicationOrder).map((line) => {
    if (isSpendLine(line)) {
      // A group covered twice (edited line items) leaves more than one share: sum its streams.
      const amounts = coveredTwice
        ? undefined
        : cellAmounts(line.pool, context.spendCells(line.pool), (group) => sharesOf.get(group), range);
      return coverLine(line, residual, range, { readOnly: true, amounts });
    }
    // A group covered twice is covered again from what the first line left.
    if (line.pool.members.some((s) => copied.has(s))) {
      coveredTwice = true;
      return coverLine(line, residual, range);
    }
    for (const s of line.pool.members) {
      residual[s] = new Float64Array(portfolio.hours);
      copied.add(s);
    }
    const coverage = coverLine(line, residual, range, { from: portfolio.residual });
    sharesOf.set(line.pool, coverage.shares);
    return coverage;
  });
}

/**
 * The matches of the selected `lineItems` (all of one plan, computed from `input`) over `range`.
 * Matches keep their ids across ranges: an id names a (line item, resource) pair.
 */
export function resourceMatchesForWindow(
  input: EngineInput,
  lineItems: readonly LineSelection[],
  range: HourRange,
): LineResourceMatch[] {
  validateEngineInput(input);
  if (range.start < 0 || range.end > input.window.hours || range.end < range.start) {
    throw new ValidationError('The hour range is outside the usage window', {
      range: ['outside the window'],
    });
  }
  const context = buildPlanningContext(input);
  const itemOf = new Map<PlannedLine, string>();
  for (const item of lineItems) {
    if (!item.is_selected || item.selected_quantity <= 0) continue;
    const line = plannedLine(context, item);
    if (line) itemOf.set(line, item.id);
  }
  const coverages = coverInOrder(context, [...itemOf.keys()], range);
  const ids = coverages.map((coverage) => itemOf.get(coverage.line) as string);
  const view = matchRange(context.portfolio, input.orgId, range);
  return Array.from(buildResourceMatches(context.portfolio, view, coverages, ids).matches);
}
