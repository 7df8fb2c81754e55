import type { Provider } from '../engine/shapes/model';

const HOUR_MS = 3_600_000;

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
  /** The import session that has not finished; null when the inputs are whole. */
  readonly importSession: ImportSession | null;
  /** First and last hour (ISO 8601 hour starts) of the stored usage; null before any usage import. */
  readonly firstHour: string | null;
  readonly lastHour: string | null;
  /** Resources in the last usage import. */
  readonly resources: number;
  /** Commitments stored by the last commitment import. */
  readonly commitments: number;
  readonly updatedAt: string;
  /** Counts the writes of the state: an import opens its session only on the state it read. */
  readonly version: number;
}

/**
 * An import under way (docs/import.md, Sessions): only its owner, named by `sessionId`, writes
 * and finishes it. It holds a lease the owner renews while it writes; a session whose lease ran
 * out was abandoned (its process stopped): another import may begin, and the inputs it left
 * half-written never count as current.
 */
export interface ImportSession {
  readonly sessionId: string;
  readonly startedAt: string;
  /** The lease: after this the session is abandoned. */
  readonly expiresAt: string;
  /** The version of the last whole inputs, before the first unfinished import began. */
  readonly baseVersion: number;
}

/** How far ahead of the import's clock a usage row may be (clocks of exporters drift). */
export const CLOCK_SKEW_HOURS = 1;

/**
 * The last hour (since the epoch) that is not in the future at `now`: usage rows after it are
 * refused, and a lookback never ends after it.
 */
export function latestPresentHour(now: Date): number {
  return Math.floor(now.getTime() / HOUR_MS) + CLOCK_SKEW_HOURS;
}

/** `open`: an import is writing; `abandoned`: one stopped half-way (its lease ran out); `none`: inputs are whole. */
export type ImportStatus = 'none' | 'open' | 'abandoned';

export function importStatus(state: UsageState | null, now: Date): ImportStatus {
  const session = state?.importSession;
  if (!session) return 'none';
  return Date.parse(session.expiresAt) > now.getTime() ? 'open' : 'abandoned';
}

/**
 * The version of the last whole plan inputs: the stored one when no import is unfinished, else
 * the one before the unfinished import began. No state at all is version 0.
 */
export function wholeInputsVersion(state: UsageState | null): number {
  return state?.importSession ? state.importSession.baseVersion : (state?.usageVersion ?? 0);
}

/**
 * Whether a plan computed from plan inputs of `usageVersion` is current at `now`: it was computed
 * from the last whole inputs, and no import is open. After an import was abandoned, the plans of
 * the inputs before it stay current (nothing newer is whole) until an import finishes.
 */
export function planInputsUnchanged(state: UsageState | null, usageVersion: number, now: Date): boolean {
  return importStatus(state, now) !== 'open' && wholeInputsVersion(state) === usageVersion;
}

/**
 * Whether the stored inputs are exactly those of `usageVersion`: no import began since, and none
 * is unfinished (an abandoned one half-wrote them). Only then can a plan of that version be
 * covered again from the stored usage.
 */
export function storedInputsAre(state: UsageState | null, usageVersion: number): boolean {
  return (state?.usageVersion ?? 0) === usageVersion && !state?.importSession;
}

/**
 * Whether the stored usage spans `covered` (hours since the epoch): an import of those hours
 * whose values are all stored already leaves the inputs as they are.
 */
export function storedUsageSpans(
  state: Pick<UsageState, 'firstHour' | 'lastHour'>,
  covered: { readonly firstHour: number; readonly lastHour: number },
): boolean {
  if (state.firstHour === null || state.lastHour === null) return false;
  return (
    covered.firstHour >= Date.parse(state.firstHour) / HOUR_MS &&
    covered.lastHour <= Date.parse(state.lastHour) / HOUR_MS
  );
}
