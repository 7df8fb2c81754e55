/**
 * The local server's stand-in for API Gateway's usage-plan buckets (per-tenant throttling,
 * shared/http/tenant-rate-limit.ts): never runs on Lambda, where API Gateway keeps the buckets.
 */
import { type TenantThrottle, tenantThrottleProblem } from '../../shared/http/tenant-rate-limit';

/**
 * Token buckets by key: a bucket holds up to `burstLimit` tokens, starts full, gains `rateLimit`
 * tokens a second, and each admitted request takes one. Tokens are counted in thousandths
 * (`rateLimit` of them a millisecond), so whole-millisecond clocks and whole rates stay exact.
 * Time is the caller's (milliseconds, never decreasing per key): the module has no clock.
 */
export class TenantRateLimiter {
  readonly #perMilli: number;
  readonly #capacity: number;
  /** Keys whose bucket is not full; a key absent is a full bucket. */
  readonly #buckets = new Map<string, { milliTokens: number; at: number }>();
  /** The number of buckets at which full ones are next looked for (doubling: amortized constant). */
  #sweepAt = 1024;

  constructor(throttle: TenantThrottle) {
    const problem = tenantThrottleProblem(throttle);
    if (problem) throw new RangeError(`Tenant throttle: ${problem}`);
    this.#perMilli = throttle.rateLimit;
    this.#capacity = throttle.burstLimit * 1000;
  }

  /** Takes a token from `key`'s bucket at time `nowMs`: true when the request is admitted. */
  admit(key: string, nowMs: number): boolean {
    const bucket = this.#buckets.get(key);
    const available =
      bucket === undefined
        ? this.#capacity
        : Math.min(this.#capacity, bucket.milliTokens + Math.max(0, nowMs - bucket.at) * this.#perMilli);
    if (available < 1000) {
      if (bucket !== undefined) {
        bucket.milliTokens = available;
        bucket.at = Math.max(bucket.at, nowMs);
      }
      return false;
    }
    this.#buckets.set(key, { milliTokens: available - 1000, at: nowMs });
    this.#forgetFullBuckets(nowMs);
    return true;
  }

  /**
   * A bucket refilled to the brim is the same as no bucket: drop those now and then, so the map
   * holds about the keys active within one burst's refill time.
   */
  #forgetFullBuckets(nowMs: number): void {
    if (this.#buckets.size < this.#sweepAt) return;
    for (const [key, bucket] of this.#buckets) {
      if (bucket.milliTokens + (nowMs - bucket.at) * this.#perMilli >= this.#capacity) {
        this.#buckets.delete(key);
      }
    }
    this.#sweepAt = Math.max(1024, 2 * this.#buckets.size);
  }
}
