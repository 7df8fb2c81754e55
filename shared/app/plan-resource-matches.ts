import {
  hourRangeForDates,
  type LineResourceMatch,
  type ResourceMatch,
  resourceMatchesForWindow,
} from '../domain/engine';
import type { Principal } from '../domain/principal';
import { type ListOrder, sortList } from './list-order';
import { loadPlanFor } from './plan-access';
import { loadPlanInputs } from './plan-inputs';
import type { AppContext, PlanContent } from './ports';

export interface ResourceMatchQuery {
  /** `YYYY-MM-DD`, both days included. */
  readonly startDate: string;
  readonly endDate: string;
  /** Only matches of these line items; an empty list filters nothing. */
  readonly lineItemIds?: readonly string[];
  readonly order: ListOrder<ResourceMatch>;
}

/**
 * Spec #9: how a plan's line items cover each resource over the days asked for, clipped to the
 * plan's lookback (days outside it have no usage to match: none of them gives an empty list).
 * Over the whole lookback these are the plan's stored matches; over part of it they are computed
 * again from the stored usage, applying the plan's line items to those hours only.
 */
export async function listPlanResourceMatches(
  ctx: AppContext,
  principal: Principal,
  orgId: string,
  planId: string,
  query: ResourceMatchQuery,
): Promise<ResourceMatch[]> {
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  const range = hourRangeForDates(content.window, query.startDate, query.endDate);
  if (range.end === range.start) return [];
  const planLineItems = new Set(content.lineItems.map((item) => item.id));
  const wanted = query.lineItemIds?.length
    ? query.lineItemIds.map((id) => id.toLowerCase()).filter((id) => planLineItems.has(id))
    : undefined;
  if (wanted?.length === 0) return [];

  let matches: LineResourceMatch[];
  if (range.start === 0 && range.end === content.window.hours) {
    matches = await ctx.repos.plans.listResourceMatches(content.planId, wanted);
  } else {
    const wantedSet = wanted ? new Set(wanted) : null;
    matches = (await matchesOverRange(ctx, content, range)).filter(
      (entry) => wantedSet === null || wantedSet.has(entry.lineItemId),
    );
  }
  return sortList(
    matches.map((entry) => entry.match),
    query.order,
    (match) => match.id,
  );
}

/** The plan's matches over part of its lookback, from the usage and commitments stored now. */
async function matchesOverRange(
  ctx: AppContext,
  content: PlanContent,
  range: { start: number; end: number },
): Promise<LineResourceMatch[]> {
  const { orgId, provider, window } = content;
  const inputs = await loadPlanInputs(ctx, orgId, provider, window);
  return resourceMatchesForWindow(
    {
      orgId,
      provider,
      window,
      ...inputs,
      // The plan's own scope: the org's may have changed since (its plans are then recomputed).
      sharing: content.sharing,
      planSeed: content.planSeed,
      createdAt: content.createdAt,
    },
    content.lineItems,
    range,
  );
}
