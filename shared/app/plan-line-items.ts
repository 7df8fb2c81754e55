import type { LineItem } from '../domain/engine';
import { defaultSegmentId } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { type ListOrder, sortList } from './list-order';
import { loadPlanFor } from './plan-access';
import type { ContextWith } from './ports';

export interface LineItemQuery {
  readonly order: ListOrder<LineItem>;
  /** Only line items of this segment: every line item is in its provider's default segment. */
  readonly segmentId?: string;
  /** Only line items these resource matches belong to; an empty list filters nothing. */
  readonly resourceMatchIds?: readonly string[];
}

/** Spec #7: a plan's line items, filtered and sorted (the caller pages them). */
export async function listPlanLineItems(
  ctx: ContextWith<'orgs' | 'plans'>,
  principal: Principal,
  orgId: string,
  planId: string,
  query: LineItemQuery,
): Promise<LineItem[]> {
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  let items = content.lineItems;
  if (
    query.segmentId !== undefined &&
    query.segmentId.toLowerCase() !== defaultSegmentId(orgId, content.provider)
  ) {
    items = [];
  }
  if (query.resourceMatchIds?.length) {
    const lineItemOf = await ctx.repos.plans.resourceMatchLineItems(content.planId);
    const wanted = new Set(query.resourceMatchIds.flatMap((id) => lineItemOf.get(id.toLowerCase()) ?? []));
    items = items.filter((item) => wanted.has(item.id));
  }
  return sortList(items, query.order, (item) => item.id);
}
