import type { PlanStatus } from '../engine';

/**
 * One plan per computation (docs/purchases.md): the plans of one org, provider and plan-input
 * version are alternatives over the same usage, so applying one makes the others unavailable.
 * The claim is written, conditionally, before anything else an apply writes: of two siblings
 * applied at once, exactly one holds it.
 */
export interface AppliedComputation {
  readonly planId: string;
  /** The user the plan is applied as: a retry by the same caller goes on with the claim. */
  readonly appliedBy: string;
  readonly appliedAt: string;
}

/** Statuses of a plan nobody applied yet: only these can be outdated (applied ones are kept). */
export const unappliedStatuses: readonly PlanStatus[] = ['new', 'reviewed'];

/**
 * Whether a plan computed from inputs `planVersion` is outdated when the org's inputs are at
 * `currentVersion`: its commitments or usage changed since (an import, a purchase, a setting), so
 * the plan may buy what the org owns now. A plan applied before (re-applied after a review)
 * keeps its claim and is not outdated by its own purchases.
 */
export function isOutdated(status: PlanStatus, planVersion: number, currentVersion: number): boolean {
  return unappliedStatuses.includes(status) && currentVersion > planVersion;
}
