/**
 * Per-tenant throttling (docs/http.md, "Throttling"; 429): each API key has its own token bucket,
 * so one tenant cannot use up the stage's whole rate. On AWS the buckets are API Gateway's, from a
 * usage plan the authorizer's `usageIdentifierKey` selects (docs/deploy.md); the local server
 * keeps the same buckets itself, with the same limits (local/http/tenant-rate-limiter.ts). Bearer
 * requests all carry one shared usage identifier; the service counts them itself per OAuth client
 * and org, in fixed windows of the same average rate (`bearerThrottleWindow`).
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

/**
 * The fixed window a Bearer request at `nowMs` is counted in: `burstLimit` requests per window of
 * `burstLimit / rateLimit` seconds, so the average is the tenant's rate and a burst of the
 * tenant's size passes at once. `index` numbers the windows since the epoch.
 */
export function bearerThrottleWindow(
  throttle: TenantThrottle,
  nowMs: number,
): { readonly index: number; readonly endsAtMs: number; readonly limit: number } {
  const lengthMs = Math.max(1, Math.round((throttle.burstLimit / throttle.rateLimit) * 1000));
  const index = Math.floor(nowMs / lengthMs);
  return { index, endsAtMs: (index + 1) * lengthMs, limit: throttle.burstLimit };
}

/**
 * `TENANT_RATE_LIMIT` (requests/s) and `TENANT_BURST_LIMIT` override the default limits: the local
 * server's, and on AWS the group functions' (set by CDK from the stack's tenant throttle).
 */
export function readTenantThrottle(env: NodeJS.ProcessEnv): TenantThrottle {
  const throttle = {
    rateLimit: Number(env.TENANT_RATE_LIMIT ?? defaultTenantThrottle.rateLimit),
    burstLimit: Number(env.TENANT_BURST_LIMIT ?? defaultTenantThrottle.burstLimit),
  };
  const problem = tenantThrottleProblem(throttle);
  if (problem) throw new Error(`TENANT_RATE_LIMIT / TENANT_BURST_LIMIT: ${problem}`);
  return throttle;
}
