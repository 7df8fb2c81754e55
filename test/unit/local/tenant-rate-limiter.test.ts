import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TenantRateLimiter } from '../../../local/http/tenant-rate-limiter';
import {
  defaultTenantThrottle,
  type TenantThrottle,
  tenantThrottleProblem,
} from '../../../shared/http/tenant-rate-limit';

/**
 * The oracle: one bucket per key, refilled a millisecond at a time by `rate` thousandths of a
 * token up to the burst, from time 0 with a full bucket; a request at time t is seen after the
 * refill of millisecond t.
 */
function naiveAdmissions(
  throttle: TenantThrottle,
  requests: readonly { key: string; at: number }[],
): boolean[] {
  const buckets = new Map<string, number>();
  const end = Math.max(0, ...requests.map((request) => request.at));
  const byTime = new Map<number, number[]>();
  requests.forEach((request, index) => {
    byTime.set(request.at, [...(byTime.get(request.at) ?? []), index]);
  });
  const admitted: boolean[] = [];
  for (let ms = 0; ms <= end; ms++) {
    if (ms > 0) {
      for (const [key, milli] of buckets) {
        buckets.set(key, Math.min(throttle.burstLimit * 1000, milli + throttle.rateLimit));
      }
    }
    for (const index of byTime.get(ms) ?? []) {
      const { key } = requests[index] as { key: string };
      const milli = buckets.get(key) ?? throttle.burstLimit * 1000;
      admitted[index] = milli >= 1000;
      buckets.set(key, milli >= 1000 ? milli - 1000 : milli);
    }
  }
  return admitted;
}

describe('TenantRateLimiter', () => {
  it('admits a burst at once, refuses the next request, and admits again as the rate refills', () => {
    // Prepare: 2 requests a second, bursts of 3. Worked by hand: 3 at t=0, a token every 500 ms.
    const limiter = new TenantRateLimiter({ rateLimit: 2, burstLimit: 3 });

    // Act
    const atStart = [0, 0, 0, 0].map((at) => limiter.admit('key-a', at));
    const later = [499, 500, 500, 1000, 1000].map((at) => limiter.admit('key-a', at));

    // Assess
    expect(atStart).toEqual([true, true, true, false]);
    expect(later).toEqual([false, true, false, true, false]);
  });

  it('keeps one bucket per key: a key at its limit does not slow another', () => {
    // Prepare
    const limiter = new TenantRateLimiter({ rateLimit: 1, burstLimit: 2 });

    // Act
    const first = [0, 0, 0].map((at) => limiter.admit('tenant-1', at));
    const second = [0, 0, 0].map((at) => limiter.admit('tenant-2', at));

    // Assess
    expect(first).toEqual([true, true, false]);
    expect(second).toEqual([true, true, false]);
  });

  it('never holds more than the burst, however long a key was idle', () => {
    // Prepare
    const limiter = new TenantRateLimiter({ rateLimit: 5, burstLimit: 4 });
    limiter.admit('key', 0);

    // Act: an hour later, five at once.
    const admitted = [1, 2, 3, 4, 5].map(() => limiter.admit('key', 3_600_000));

    // Assess
    expect(admitted).toEqual([true, true, true, true, false]);
  });

  it('decides as a bucket refilled millisecond by millisecond would, for any requests', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1500 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), gap: fc.integer({ min: 0, max: 700 }) }), {
          maxLength: 60,
        }),
        (rateLimit, burstLimit, steps) => {
          // Prepare
          let at = 0;
          const requests = steps.map((step) => {
            at += step.gap;
            return { key: step.key, at };
          });
          const limiter = new TenantRateLimiter({ rateLimit, burstLimit });

          // Act
          const admitted = requests.map((request) => limiter.admit(request.key, request.at));

          // Assess
          expect(admitted).toEqual(naiveAdmissions({ rateLimit, burstLimit }, requests));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('forgets refilled buckets without changing decisions, with thousands of keys', () => {
    // Prepare: key i drains its bucket of 2 at i ms, so buckets keep filling up while new keys
    // arrive (and are swept); every key drains again once all are refilled.
    const limiter = new TenantRateLimiter({ rateLimit: 1, burstLimit: 2 });
    const keys = Array.from({ length: 10_000 }, (_, index) => `key-${index}`);
    const drain = (key: string, at: number) =>
      [limiter.admit(key, at), limiter.admit(key, at), limiter.admit(key, at)].join();

    // Act
    const first = keys.map((key, index) => drain(key, index));
    const again = keys.map((key) => drain(key, 20_000));
    const third = keys.map((key, index) => drain(key, 20_000 + index / 10));

    // Assess
    expect(new Set([...first, ...again])).toEqual(new Set(['true,true,false']));
    expect(new Set(third)).toEqual(new Set(['false,false,false']));
  });

  it('refuses limits API Gateway would not take, naming the bad one', () => {
    expect(tenantThrottleProblem(defaultTenantThrottle)).toBeNull();
    expect(tenantThrottleProblem({ rateLimit: 0, burstLimit: 5 })).toMatch(/rate limit/);
    expect(tenantThrottleProblem({ rateLimit: 2.5, burstLimit: 1.5 })).toMatch(/burst limit/);
    expect(() => new TenantRateLimiter({ rateLimit: Number.NaN, burstLimit: 1 })).toThrow(RangeError);
  });
});
