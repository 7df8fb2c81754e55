import {
  hourRangeForDates,
  type LineResourceMatch,
  type ResourceMatch,
  resourceMatchesForWindow,
} from '../domain/engine';
import { ConflictError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { storedInputsAre } from '../domain/usage/usage-state';
import { type ListOrder, sortList } from './list-order';
import { loadPlanFor } from './plan-access';
import { loadPlanInputs } from './plan-inputs';
import type { ContextWith, PlanContent } from './ports';

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
 * again from the stored usage of the plan's own input version, applying the plan's line items to
 * those hours only.
 */
export async function listPlanResourceMatches(
  ctx: ContextWith<'catalog' | 'commitments' | 'orgs' | 'plans' | 'purchases' | 'usage'>,
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

/**
 * The plan's matches over part of its lookback, from its own inputs: the stored ones, provided
 * they are still of the plan's version before and after they are read. Newer inputs would give
 * figures of usage the plan never saw: a ConflictError instead (the plan is about to be replaced).
 */
async function matchesOverRange(
  ctx: ContextWith<'catalog' | 'commitments' | 'orgs' | 'plans' | 'purchases' | 'usage'>,
  content: PlanContent,
  range: { start: number; end: number },
): Promise<LineResourceMatch[]> {
  const { orgId, provider, window } = content;
  const requireOwnInputs = async () => {
    if (!storedInputsAre(await ctx.repos.usage.usageState(orgId, provider), content.usageVersion)) {
      throw new ConflictError(
        `The usage commitment plan ${content.planId} was computed from has changed since; ` +
          'resource matches over part of its lookback are served once its plans are computed again',
      );
    }
  };
  await requireOwnInputs();
  const inputs = await loadPlanInputs(ctx, orgId, provider, window, true, content.createdAt);
  await requireOwnInputs();
  return resourceMatchesForWindow(
    {
      orgId,
      provider,
      window,
      ...inputs,
      // The plan's own scope: the org's may have changed since (its plans are then recomputed).
      sharing: content.sharing,
      renewalHorizonDays: content.renewalHorizonDays,
      planSeed: content.planSeed,
      createdAt: content.createdAt,
    },
    content.lineItems,
    range,
  );
}
