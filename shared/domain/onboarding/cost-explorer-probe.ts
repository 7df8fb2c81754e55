import { type CheckResult, check } from './checklist';

/**
 * Cost Explorer bills the customer for each call ($0.01 a `GetCostAndUsage`), and #18 may be run
 * again and again, so an account is probed at most once an hour: a verification within the hour
 * answers the last probe's result (docs/onboarding.md, Checks and statuses). Each account of the
 * org keeps its own probe with its time (verifying another account in between changes nothing of
 * it); a verification claims the account's hour before it calls, so two at once make one call.
 */

export const costExplorerProbeIntervalMs = 60 * 60 * 1000;

/** The last probe of an account: `result` is null while the verification that claimed it runs. */
export interface CostExplorerProbe {
  readonly accountId: string;
  readonly at: string;
  readonly result: CheckResult | null;
}

/**
 * What a verification of `accountId` at `now` does about Cost Explorer: `probe` (no probe of this
 * account in the hour), or `reuse` the result to answer in place of a call.
 */
export function costExplorerDecision(
  last: CostExplorerProbe | null,
  accountId: string,
  now: Date,
): { readonly action: 'probe' } | { readonly action: 'reuse'; readonly result: CheckResult } {
  if (!last || last.accountId !== accountId) return { action: 'probe' };
  const at = Date.parse(last.at);
  if (!(now.getTime() - at < costExplorerProbeIntervalMs)) return { action: 'probe' };
  const next = new Date(at + costExplorerProbeIntervalMs).toISOString();
  if (!last.result) {
    return {
      action: 'reuse',
      result: check(
        'cost_explorer_access',
        'unknown',
        `Cost Explorer is being checked by a verification started at ${last.at}; verify again in a moment`,
      ),
    };
  }
  return {
    action: 'reuse',
    result: {
      ...last.result,
      detail: `${last.result.detail} (checked at ${last.at}; Cost Explorer bills each call, so it is checked again after ${next})`,
    },
  };
}

/**
 * Whether a verification's Cost Explorer result is worth keeping for the hour: an answer of the
 * service (allowed or refused). A throttled or failed call, or one never made because the role
 * could not be assumed, is not: the next verification tries again.
 */
export function keepsCostExplorerResult(result: CheckResult | undefined): result is CheckResult {
  return result !== undefined && (result.status === 'available' || result.status === 'missing');
}
