/**
 * The service's own throttle of Bearer requests (docs/http.md, "Throttling"): API Gateway's usage
 * plan throttles by keys that exist, and all OAuth clients share one, so each (client, org) pair's
 * rate is counted in the table.
 */

/** Whose requests share a bucket: one OAuth client acting on one org. */
export interface ThrottledCaller {
  readonly clientId: string;
  readonly orgId: string;
}

export type ThrottleDecision =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly retryAfterSeconds: number };

export interface RequestThrottle {
  /** Counts one request of `caller` at `now`: admitted, or refused until the window ends. */
  admit(caller: ThrottledCaller, now: Date): Promise<ThrottleDecision>;
}
