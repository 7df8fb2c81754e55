import type {
  CommitmentSharing,
  LineItem,
  LineResourceMatch,
  PlanStatus,
  Provider,
  ProviderPlans,
  RecommendedPurchasePlan,
  UsageWindow,
} from '../../domain/engine';
import type { Membership } from '../../domain/orgs';
import type { AppliedComputation } from '../../domain/plans/applied-computation';
import type { ComputedPlanSet, PlanCalculation, PlanSetState, StoredPlan } from '../../domain/plans/plan-set';
import type { UsageState } from '../../domain/usage/usage-state';

/** Ports of plans: the stored plans and plan sets, and the plan computation that refreshes them. */

/** What a plan set was computed from, stored with each of its plans. */
export interface PlanBasis {
  readonly usageVersion: number;
  readonly planSeed: string;
  readonly window: UsageWindow;
  /** The org's sharing scope the plan was computed with: its usage is covered again the same way. */
  readonly sharing: CommitmentSharing;
  /** The org's renewal horizon the plan was computed with, kept for the same reason. */
  readonly renewalHorizonDays: number;
  /** The catalog version its prices came from (docs/catalog.md, Versions); absent: `bundled`. */
  readonly catalogVersion?: string;
}

/**
 * A stored plan's content, fixed once stored (a plan id names one computation's output): the
 * plan's place and basis, and its line items in the order the plan applies them.
 */
export interface PlanContent extends PlanBasis {
  readonly planId: string;
  readonly orgId: string;
  readonly provider: Provider;
  /** The plan's `created_at`. */
  readonly createdAt: string;
  readonly lineItems: readonly LineItem[];
}

/**
 * Stored plans as readers see them (docs/plans-api.md, docs/data-model.md): the published plan
 * set, the plans, their content and matches, and their status. What a computation writes is
 * ComputedPlanRepository's, so that the functions that only serve or apply plans bundle none of it.
 */
export interface PlanRepository {
  planSet(orgId: string, provider: Provider): Promise<PlanSetState | null>;
  /** The stored plans among `planIds`, in that order (ids with no plan are left out). */
  getPlans(orgId: string, provider: Provider, planIds: readonly string[]): Promise<StoredPlan[]>;
  /** The content of the org's plan `planId`, any provider; null when the org has no such plan. */
  planContent(orgId: string, planId: string): Promise<PlanContent | null>;
  /** The plan's resource matches in plan order, or those of the given line items only. */
  listResourceMatches(planId: string, lineItemIds?: readonly string[]): Promise<LineResourceMatch[]>;
  /** Resource match id -> id of the line item it belongs to, for every match of the plan. */
  resourceMatchLineItems(planId: string): Promise<ReadonlyMap<string, string>>;
  /** The v2 purchase plan stored with a recommended plan; null for other plans. */
  purchasePlan(planId: string): Promise<RecommendedPurchasePlan | null>;
  /** The plan of the org's computation `usageVersion` that was applied; null when none was. */
  appliedComputation(
    orgId: string,
    provider: Provider,
    usageVersion: number,
  ): Promise<AppliedComputation | null>;
  /**
   * Claims the computation `usageVersion` for `claim.planId`, applied as `claim.appliedBy`: written
   * when no plan holds it, or the same plan holds it as the same user (a retry) or as
   * `takeOverFrom` (a re-apply after a review). Answers the claim as stored after the write: the
   * caller's when it won, the holder's otherwise.
   */
  claimComputation(
    orgId: string,
    provider: Provider,
    usageVersion: number,
    claim: AppliedComputation,
    takeOverFrom?: string,
  ): Promise<AppliedComputation>;
  /**
   * Moves the plan's status from one of `change.from` to `change.to`, recording `lastModified`
   * (and, when given, who applied it and when). Answers the plan as stored after the change, or
   * null, changing nothing, when the plan is not in one of those statuses (or does not exist).
   */
  changeStatus(
    orgId: string,
    provider: Provider,
    planId: string,
    change: {
      readonly from: readonly PlanStatus[];
      readonly to: PlanStatus;
      readonly at: string;
      readonly appliedBy?: string;
    },
  ): Promise<StoredPlan | null>;
  /**
   * The last write of an apply (docs/purchases.md, Applying), one transaction: the plan moves from
   * one of `from` to `scheduled` as `appliedBy`, provided the computation is still held by the plan
   * as `appliedBy`, and `newMember`, when given, becomes a member (provided the e-mail is not one
   * yet) with its user. All of it or nothing: answers the plan as stored, or every condition that
   * failed.
   */
  scheduleApplication(scheduling: PlanScheduling): Promise<SchedulingOutcome>;
}

export interface PlanScheduling {
  readonly orgId: string;
  readonly provider: Provider;
  readonly planId: string;
  /** The computation the plan belongs to, whose claim must still be the plan's as `appliedBy`. */
  readonly usageVersion: number;
  readonly from: readonly PlanStatus[];
  readonly at: string;
  readonly appliedBy: string;
  readonly newMember: Membership | null;
}

/** A condition of the scheduling transaction: the plan's status, the computation's claim, the e-mail not a member yet. */
export type SchedulingCondition = 'plan_status' | 'computation_claim' | 'not_a_member';

export type SchedulingOutcome =
  | { readonly scheduled: true; readonly plan: StoredPlan }
  | { readonly scheduled: false; readonly failed: readonly SchedulingCondition[] };

/**
 * What a plan computation writes (plan-computation.ts): it claims the provider's plan set, stores
 * its plans, then publishes them by completing the claim; only then do readers learn the new plan
 * ids. It deletes the plans they supersede.
 */
export interface ComputedPlanRepository {
  /**
   * Claims the computation of `calculation.usageVersion`. Answers false, claiming nothing, when
   * another claim started after `expiredBefore` holds the plan set, or that version is computed
   * already.
   */
  claimCalculation(
    orgId: string,
    provider: Provider,
    calculation: PlanCalculation,
    expiredBefore: string,
  ): Promise<boolean>;
  /**
   * Publishes `computed` as the plan set and ends the claim `claimId`; false, changing nothing,
   * when the claim is no longer held (it expired and another computation claimed the set).
   */
  completeCalculation(
    orgId: string,
    provider: Provider,
    claimId: string,
    computed: ComputedPlanSet,
  ): Promise<boolean>;
  /** Ends the claim `claimId` without publishing anything (a failed computation); no-op if not held. */
  releaseCalculation(orgId: string, provider: Provider, claimId: string): Promise<void>;
  /** Stores every plan of `plans` with its line items, resource matches and v2 purchase plan. */
  storePlans(orgId: string, basis: PlanBasis, plans: ProviderPlans): Promise<void>;
  /**
   * Deletes a plan and everything stored under it, unless it was ever applied (its status is not
   * `new` any more): applied plans are kept. Answers whether it is gone.
   */
  deletePlan(orgId: string, provider: Provider, planId: string): Promise<boolean>;
}

/** Runs `refreshPlans` for one org and provider, wherever the composition root decided. */
export type PlanComputation = (orgId: string, provider: Provider) => Promise<PlanRefresh>;

/** A context that has its plan computation (the plan-serving use cases need one). */
export type WithPlanComputation<C> = C & { readonly planComputation: PlanComputation };

/** Whether `ctx` has its plan computation. */
export function hasPlanComputation<C extends { readonly planComputation?: PlanComputation }>(
  ctx: C,
): ctx is WithPlanComputation<C> {
  return ctx.planComputation !== undefined;
}

/**
 * `current`: the stored plans were current already (or became so meanwhile); `computed`: this
 * call computed and published them; `calculating`: another computation holds the plan set;
 * `importing`: an import is changing the inputs, so nothing is computed until it ends (its end
 * computes them); `abandoned`: an import stopped half-way and its inputs are not whole, so
 * nothing is computed until an import of the provider finishes.
 */
export const planRefreshOutcomes = ['current', 'computed', 'calculating', 'importing', 'abandoned'] as const;

export type PlanRefreshOutcome = (typeof planRefreshOutcomes)[number];

export interface PlanRefresh {
  readonly outcome: PlanRefreshOutcome;
  /** The plan set as it stands after the refresh. */
  readonly planSet: PlanSetState | null;
  /** The usage state the refresh judged freshness by. */
  readonly usageState: UsageState | null;
}
