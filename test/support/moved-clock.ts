import type { Clock } from '../../shared/app/ports';

/**
 * The real time, plus however far the test moved it forward: a local server started with it
 * (`startLocalApi(config, { clock })`) sees a pacing delay pass when the test moves the clock past
 * it, instead of the test waiting it out (docs/testing.md). It never goes back, and it still
 * moves with the real time, so what the server stamps stays in order.
 */
export interface MovedClock extends Clock {
  /** Moves the clock `ms` further ahead of the real time. */
  forward(ms: number): void;
}

export function movedClock(): MovedClock {
  let aheadMs = 0;
  return {
    now: () => new Date(Date.now() + aheadMs),
    forward(ms) {
      if (!(ms >= 0)) throw new Error(`a moved clock only goes forward, not by ${ms} ms`);
      aheadMs += ms;
    },
  };
}
