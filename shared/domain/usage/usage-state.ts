import type { Provider } from '../engine/model';

/**
 * What an org holds of one provider's plan inputs. Plans are computed from usage and
 * commitments; every import of either raises `usageVersion`, so a plan that records the version
 * it was computed from knows when it is stale.
 */
export interface UsageState {
  readonly orgId: string;
  readonly provider: Provider;
  /** Raised by every usage or commitment import of the provider, when it starts. */
  readonly usageVersion: number;
  /**
   * When the import now running started; null when none runs. An import that failed half-way
   * leaves it set until the import is run again to its end.
   */
  readonly importStartedAt: string | null;
  /** First and last hour (ISO 8601 hour starts) of the stored usage; null before any usage import. */
  readonly firstHour: string | null;
  readonly lastHour: string | null;
  /** Resources in the last usage import. */
  readonly resources: number;
  /** Commitments stored by the last commitment import. */
  readonly commitments: number;
  readonly updatedAt: string;
}

/**
 * Whether a plan computed from plan inputs of `usageVersion` still reflects what is stored: no
 * import started since, and none is running. No state at all is version 0.
 */
export function planInputsUnchanged(state: UsageState | null, usageVersion: number): boolean {
  return (state?.usageVersion ?? 0) === usageVersion && state?.importStartedAt == null;
}
