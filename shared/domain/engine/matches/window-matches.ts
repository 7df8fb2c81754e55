/**
 * Resource matches of a plan's line items over any range of hours of the same input, without
 * recomputing the plan: the items' offers and selected quantities are applied again, in the same
 * order and the same way, to the hours of the range only. Over the whole window this gives exactly
 * the plan's matches.
 */
import { ValidationError } from '../../errors';
import { amountsAbove, leftoverAmounts } from '../curves/layers';
import { applicationOrder, isSpendLine, type PlannedLine } from '../curves/planned-line';
import { buildPlanningContext, type PlanningContext } from '../curves/planning-context';
import { type CoveragePool, tierAmounts } from '../groups/coverage-pool';
import { groupKey, offerScopeKey, sharingKey } from '../groups/groups';
import { cellAmounts } from '../groups/spend-cells';
import { rateTableKey } from '../groups/spend-pools';
import { type EngineInput, validateEngineInput } from '../shapes/engine-input';
import type { LineItem } from '../shapes/plan-shapes';
import type { HourRange } from '../shapes/window-time';
import { coverLine, type LineCoverage } from '../tallies/line-coverage';
import { buildResourceMatches, type LineResourceMatch, matchRange } from './resource-matches';

/** What of a stored line item the engine needs to cover usage again. */
export type LineSelection = Pick<
  LineItem,
  'id' | 'offer_id' | 'account_id' | 'selected_quantity' | 'is_selected' | 'layer'
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
  return pool
    ? { offer, sharingKey: shared, pool, quantity: item.selected_quantity, layer: item.layer }
    : null;
}

/** A stack's layers so far over the range: the amounts each was applied to and the shares it covered. */
interface Stack {
  readonly amounts: (readonly Float64Array[])[];
  readonly shares: (readonly Float64Array[])[];
}

/**
 * Applies lines as plans do: reservations first, each writing what it leaves of its members into
 * fresh arrays (only those streams are copied), then savings plans, on amounts summed per group like
 * the plan's (spend-cells.ts) so that they cover the same. A line stacked on others of its pool (a
 * group's, or a sharing key's savings plans: layers.ts) covers what they left, its amounts derived
 * from theirs as the plan derived them; a savings plan with a layer above it writes what it leaves
 * too, the others only tally.
 */
function coverInOrder(
  context: PlanningContext,
  lines: readonly PlannedLine[],
  range: HourRange,
): LineCoverage[] {
  const { portfolio } = context;
  const residual = [...portfolio.residual];
  const copied = new Set<number>();
  const copy = (pool: CoveragePool) => {
    for (const s of pool.members) {
      if (copied.has(s)) continue;
      residual[s] = new Float64Array(portfolio.hours);
      copied.add(s);
    }
  };
  // Per group pool, the shares of its layers; per group pool or sharing key, its stack so far.
  const sharesOf = new Map<CoveragePool, (readonly Float64Array[])[]>();
  const stacks = new Map<CoveragePool | string, Stack>();
  const ordered = [...lines].sort(applicationOrder);
  const stackKey = (line: PlannedLine) => (isSpendLine(line) ? `spend:${line.sharingKey}` : line.pool);
  let coveredTwice = false;
  return ordered.map((line, index) => {
    const key = stackKey(line);
    const stack = stacks.get(key);
    const above = ordered.slice(index + 1).some((next) => stackKey(next) === key);
    if (isSpendLine(line)) {
      // A group covered twice (edited line items) leaves more than one share: sum its streams.
      let amounts: readonly Float64Array[] | undefined = coveredTwice
        ? undefined
        : cellAmounts(line.pool, context.spendCells(line.pool), (group) => sharesOf.get(group), range);
      if (amounts && stack) amounts = amountsAbove(amounts, stack.shares);
      let coverage: LineCoverage;
      if (above || stack) {
        const from = [...residual];
        copy(line.pool);
        coverage = coverLine(line, residual, range, { from, amounts });
      } else {
        coverage = coverLine(line, residual, range, { readOnly: true, amounts });
      }
      if (amounts) {
        const layers = stack ?? { amounts: [], shares: [] };
        layers.amounts.push(amounts);
        layers.shares.push(coverage.shares);
        stacks.set(key, layers);
      }
      return coverage;
    }
    if (stack) {
      // The next layer of the group: what the ones below left.
      const amounts = leftoverAmounts(
        stack.amounts.at(-1) as readonly Float64Array[],
        stack.shares.at(-1) as readonly Float64Array[],
      );
      const coverage = coverLine(line, residual, range, { amounts });
      stack.amounts.push(amounts);
      stack.shares.push(coverage.shares);
      return coverage;
    }
    // A group covered twice is covered again from what the first line left.
    if (line.pool.members.some((s) => copied.has(s))) {
      coveredTwice = true;
      return coverLine(line, residual, range);
    }
    const amounts = tierAmounts(line.pool, portfolio.residual, range);
    copy(line.pool);
    const coverage = coverLine(line, residual, range, { from: portfolio.residual, amounts });
    const layers = { amounts: [amounts], shares: [coverage.shares] };
    stacks.set(key, layers);
    sharesOf.set(line.pool, layers.shares);
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
