import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerThrottleWindow } from '../../../shared/http/tenant-rate-limit';

describe("the Bearer requests' fixed window", () => {
  it('counts the default 20 requests per 2 s window, numbered from the epoch', () => {
    // 20 / 10 per second = 2 s windows; 1,000,001,500 ms lies in window floor(1,000,001,500 / 2,000)
    // = 500,000, which ends at 500,001 × 2,000 = 1,000,002,000 ms.
    expect(bearerThrottleWindow({ rateLimit: 10, burstLimit: 20 }, 1_000_001_500)).toEqual({
      index: 500_000,
      endsAtMs: 1_000_002_000,
      limit: 20,
    });
  });

  it('makes a slow rate a long window: a burst of 3 at 0.1 per second lasts 30 s', () => {
    // 3 / 0.1 = 30 s; 29,999 ms is still window 0, 30,000 ms opens window 1.
    const throttle = { rateLimit: 0.1, burstLimit: 3 };
    expect(bearerThrottleWindow(throttle, 29_999)).toMatchObject({ index: 0, endsAtMs: 30_000 });
    expect(bearerThrottleWindow(throttle, 30_000)).toMatchObject({ index: 1, endsAtMs: 60_000 });
  });

  it('tiles time: the windows follow each other without gap or overlap, each holding its instants', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.double({ min: 0.001, max: 500, noNaN: true }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (burstLimit, rateLimit, nowMs) => {
          const throttle = { rateLimit, burstLimit };
          const window = bearerThrottleWindow(throttle, nowMs);
          const next = bearerThrottleWindow(throttle, window.endsAtMs);
          const lastInstant = bearerThrottleWindow(throttle, window.endsAtMs - 1);
          expect(window.endsAtMs).toBeGreaterThan(nowMs);
          expect(lastInstant.index).toBe(window.index);
          expect(next.index).toBe(window.index + 1);
          expect(window.limit).toBe(burstLimit);
        },
      ),
    );
  });
});
