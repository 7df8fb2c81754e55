/**
 * Onboarding checklists (docs/onboarding.md): one item per feature, with a status and a message saying
 * why. `available`: works; `warning`: works, but not as recommended (a daily or CSV export);
 * `missing`: absent or refused; `unknown`: could not be checked (the check itself was denied,
 * throttled, or a step it depends on failed).
 */
export type ChecklistStatus = 'available' | 'warning' | 'missing' | 'unknown';

export interface CheckResult {
  readonly feature: string;
  readonly status: ChecklistStatus;
  /** For the customer: what was found, or the provider's message when a call failed. */
  readonly detail: string;
}

/** The last verification of one provider, as stored on the onboarding record. */
export interface Verification {
  readonly checkedAt: string;
  readonly items: readonly CheckResult[];
}

export function check(feature: string, status: ChecklistStatus, detail: string): CheckResult {
  return { feature, status, detail };
}

/** The checklist before any verification ran: every feature `unknown`. */
export function uncheckedList(features: readonly string[], detail = 'not verified yet'): CheckResult[] {
  return features.map((feature) => check(feature, 'unknown', detail));
}

/** The items in the order `features` lists them (checks finish in any order). */
export function inFeatureOrder(features: readonly string[], items: readonly CheckResult[]): CheckResult[] {
  return features.map(
    (feature) => items.find((item) => item.feature === feature) ?? check(feature, 'unknown', 'not checked'),
  );
}
