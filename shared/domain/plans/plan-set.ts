import { deterministicUuid } from '../deterministic-id';
import type { CommitmentPlan, CommitmentSharing, Provider, UsageWindow } from '../engine';
import { isoHour } from '../usage/local-time';
import { latestPresentHour, planInputsUnchanged, type UsageState } from '../usage/usage-state';

/**
 * An org's plans for one provider (docs/plans-api.md): the plan set computed last, and the
 * computation under way, if any. Plans are computed from the provider's plan inputs of one
 * `usageVersion`; they stay current until an import raises it.
 */

/** docs/plan-engine.md: plans look back over the 30 days (720 hours) ending at the last hour of stored usage. */
export const LOOKBACK_HOURS = 720;

const HOUR_MS = 3_600_000;

/** The plan set stored last: what it was computed from and the plans it holds, in profile order. */
export interface ComputedPlanSet {
  readonly usageVersion: number;
  readonly planIds: readonly string[];
  /** The "Recommended" plan when one of its line items saves money; else null. */
  readonly recommendedPlanId: string | null;
  readonly computedAt: string;
}

/** A computation under way: claimed by one process, which alone may publish its result. */
export interface PlanCalculation {
  /** A random token naming the claim. */
  readonly claimId: string;
  readonly usageVersion: number;
  readonly startedAt: string;
}

export interface PlanSetState {
  readonly orgId: string;
  readonly provider: Provider;
  /** Null until the first computation finishes. */
  readonly computed: ComputedPlanSet | null;
  /** Null when no computation is under way. */
  readonly calculation: PlanCalculation | null;
}

/** A stored plan: the engine's v1 plan and what serving it again needs. */
export interface StoredPlan {
  readonly orgId: string;
  readonly provider: Provider;
  /** The plan-input version it was computed from. */
  readonly usageVersion: number;
  /** The seed of its ids, kept to cover usage again exactly as the plan did. */
  readonly planSeed: string;
  /** The sharing scope it was computed with, kept for the same reason. */
  readonly sharing: CommitmentSharing;
  /** The renewal horizon it was computed with (docs/plan-engine.md), likewise. */
  readonly renewalHorizonDays: number;
  /** The catalog version it was priced with (docs/catalog.md, Versions); absent: `bundled`. */
  readonly catalogVersion?: string;
  /** Its lookback window. */
  readonly window: UsageWindow;
  readonly plan: CommitmentPlan;
  readonly lineItemCount: number;
  /** Who applied the plan and when (docs/purchases.md); null while nobody has. */
  readonly application: PlanApplication | null;
}

export interface PlanApplication {
  /** The applying user's id. */
  readonly appliedBy: string;
  readonly appliedAt: string;
  /** The last status change. */
  readonly lastModified: string;
}

/** The version of the provider's plan inputs: no usage state at all is version 0. */
export function usageVersionOf(state: UsageState | null): number {
  return state?.usageVersion ?? 0;
}

/**
 * Whether the stored plan set reflects the stored inputs at `now`: computed from the last whole
 * inputs, no import open (`planInputsUnchanged`).
 */
export function isCurrent(planSet: PlanSetState | null, usageState: UsageState | null, now: Date): boolean {
  const computed = planSet?.computed;
  return computed != null && planInputsUnchanged(usageState, computed.usageVersion, now);
}

/**
 * Whether `planId` may still be served by id (#7, #9): it is one of the published plan set's
 * plans, or it is pinned. A superseded plan answers as if it did not exist, in every process at
 * once, since each reads the plan set.
 */
export function isServedPlan(planSet: PlanSetState | null, planId: string, pinned = false): boolean {
  return pinned || (planSet?.computed?.planIds.includes(planId) ?? false);
}

/**
 * Whether a plan of this status is pinned: never superseded, served until its purchases end. A
 * plan someone applied has moved past `new`; plans nobody applied are replaced by newer ones.
 */
export function isPinnedStatus(status: CommitmentPlan['status']): boolean {
  return status !== 'new';
}

/**
 * Seeds every id of a plan set (docs/plan-engine.md, Ids): the same org, provider and input
 * version give the same plan, line item and match ids, so ids stay put until the inputs change.
 */
export function planSeed(orgId: string, provider: Provider, usageVersion: number): string {
  return `${orgId}/${provider}/${usageVersion}`;
}

/**
 * The lookback of plans (and of the chart) at `now`: the 720 hours ending with `lastHour`, the
 * last hour of stored usage (an ISO 8601 hour start), but never after the last hour that is not
 * in the future (usage stored before future rows were refused must not move it years ahead);
 * without usage, the 720 hours ending with the hour before `now`.
 */
export function lookbackWindow(lastHour: string | null, now: Date): UsageWindow {
  const last = lastHour
    ? Math.min(Date.parse(lastHour) / HOUR_MS, latestPresentHour(now))
    : Math.floor(now.getTime() / HOUR_MS) - 1;
  return { start: isoHour(last - LOOKBACK_HOURS + 1), hours: LOOKBACK_HOURS };
}

/**
 * The default segment of an org's plans for a provider: the v2 purchase plan's `segment`. Line
 * items belong to it. Derived as the engine derives it (`purchase-plan.ts`); a unit test keeps
 * the two equal.
 */
export function defaultSegmentId(orgId: string, provider: Provider): string {
  return deterministicUuid('segment', orgId, provider, 'default');
}
