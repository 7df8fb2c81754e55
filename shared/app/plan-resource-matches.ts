import {
  hourRangeForDates,
  type LineResourceMatch,
  type ResourceMatch,
  resourceMatchesForWindow,
} from '../domain/engine';
import { ConflictError } from '../domain/errors';
import { isPinnedStatus } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { storedInputsAre } from '../domain/usage/usage-state';
import { type ListOrder, sortList } from './list-order';
import { loadPlanFor } from './plan-access';
import { loadPlanInputs, type PlanInputsContext } from './plan-inputs';
import type { PlanContent, PlanRepository, UsageRepository } from './ports';

/**
 * What resource matches read: the plans, the plan inputs' reads and the usage state (whether the
 * stored usage is still the plan's own).
 */
export type ResourceMatchContext = PlanInputsContext & {
  readonly repos: {
    readonly usage: Pick<UsageRepository, 'usageState'>;
    readonly plans: Pick<PlanRepository, 'planContent' | 'planSet' | 'getPlans' | 'listResourceMatches'>;
  };
};

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
  ctx: ResourceMatchContext,
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
 * The plan's matches over part of its lookback, from its own inputs (docs/plans-api.md, Resource
 * matches): the usage stored for those hours, what the org owned at the plan's time
 * (ownedCommitmentsAt), the plan's sharing scope and renewal horizon. While an import is writing,
 * a ConflictError (ask again once it ends). When the inputs changed since the plan, a plan nobody
 * applied is about to be replaced by one computed from them: a ConflictError too. An applied plan
 * (pinned) is never replaced, and its own purchases raise the inputs version when they complete:
 * it is covered again from what is stored, with what it bought left out, rather than never.
 */
async function matchesOverRange(
  ctx: ResourceMatchContext,
  content: PlanContent,
  range: { start: number; end: number },
): Promise<LineResourceMatch[]> {
  const { orgId, provider, window } = content;
  const requireStoredInputs = async () => {
    const state = await ctx.repos.usage.usageState(orgId, provider);
    if (state?.importSession) {
      throw new ConflictError(
        `An import of ${provider} data for organization ${orgId} is writing the usage plan ` +
          `${content.planId} was computed from; resource matches over part of its lookback are served once it ends`,
      );
    }
    if (storedInputsAre(state, content.usageVersion) || (await isPinned(ctx, content))) return;
    throw new ConflictError(
      `The usage commitment plan ${content.planId} was computed from has changed since; ` +
        'resource matches over part of its lookback are served once its plans are computed again',
    );
  };
  await requireStoredInputs();
  const inputs = await loadPlanInputs(ctx, orgId, provider, window, true, content.createdAt);
  await requireStoredInputs();
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

/** Whether the plan was applied: pinned, it stays served and is never computed again. */
async function isPinned(ctx: ResourceMatchContext, content: PlanContent): Promise<boolean> {
  const [stored] = await ctx.repos.plans.getPlans(content.orgId, content.provider, [content.planId]);
  return stored !== undefined && isPinnedStatus(stored.plan.status);
}
