/**
 * Per-tenant throttling (DESIGN §4, 429): each API key (later each OAuth client) has its own
 * token bucket, so one tenant cannot use up the stage's whole rate. On AWS the buckets are API
 * Gateway's, from a usage plan the authorizer's `usageIdentifierKey` selects (docs/deploy.md);
 * the local server keeps the same buckets itself, with the same limits (local/http/tenant-rate-limiter.ts).
 */
export interface TenantThrottle {
  /** Steady requests per second a key may send. */
  readonly rateLimit: number;
  /** Requests a key may send at once, above the steady rate (the bucket's size). */
  readonly burstLimit: number;
}

/** A fifth of the stage's default 50 requests/s, so five busy tenants fit before the stage limit. */
export const defaultTenantThrottle: TenantThrottle = { rateLimit: 10, burstLimit: 20 };

/** Whether a rate and a burst are usable: API Gateway takes a positive rate and a whole, positive burst. */
export function tenantThrottleProblem(throttle: TenantThrottle): string | null {
  if (!Number.isFinite(throttle.rateLimit) || throttle.rateLimit <= 0) {
    return `the rate limit must be a positive number of requests per second; got ${throttle.rateLimit}`;
  }
  if (!Number.isInteger(throttle.burstLimit) || throttle.burstLimit < 1) {
    return `the burst limit must be a whole number of requests, at least 1; got ${throttle.burstLimit}`;
  }
  return null;
}
