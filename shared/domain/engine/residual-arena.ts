/**
 * Memory for the residual arrays existing commitments leave (existing-commitments.ts): lent to one
 * plan computation at a time, and kept for the next.
 *
 * Why: a stream that a commitment covers gets its own residual array, some 35 MB for a fleet of
 * 10,000 streams. Fresh memory costs more than the covering written into it: the system maps and
 * zeroes every page on first touch. Covering 6,000 streams x 720 hours took 38 ms into fresh blocks
 * and 17 ms into reused ones on the benchmark machine. A warm Lambda computes plan after plan, so
 * reuse is the common case.
 *
 * A lent arena comes back when the computation returns or throws. Its arrays are then overwritten by
 * the next computation, so nothing a computation returns may read them: plans keep figures, not
 * residuals.
 */

export interface ResidualArena {
  /** An array of `length` values, contents unspecified: the caller writes every one. */
  take(length: number): Float64Array;
  /** Makes every array taken so far available again. */
  reset(): void;
  /** Bytes the arena holds. */
  readonly bytes: number;
}

/** 2 MiB: a few hundred streams' copies per block, one allocation for all of them. */
const BLOCK_LENGTH = 1 << 18;

/** An arena kept between computations is dropped above this size (a very large fleet's copies). */
const KEEP_AT_MOST_BYTES = 256 * 1024 * 1024;

export function residualArena(): ResidualArena {
  const blocks: Float64Array[] = [];
  let block = 0;
  let used = 0;
  let bytes = 0;
  return {
    take(length) {
      for (; block < blocks.length; block++, used = 0) {
        const current = blocks[block] as Float64Array;
        if (used + length <= current.length) {
          used += length;
          return current.subarray(used - length, used);
        }
      }
      const fresh = new Float64Array(Math.max(BLOCK_LENGTH, length));
      blocks.push(fresh);
      bytes += fresh.byteLength;
      used = length;
      return fresh.subarray(0, length);
    },
    reset() {
      block = 0;
      used = 0;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** The arena not lent out at the moment, if any. */
let spare: ResidualArena | undefined;

/** Runs `work` with an arena of its own, reused from an earlier computation when there is one. */
export function withResidualArena<T>(work: (arena: ResidualArena) => T): T {
  const arena = spare ?? residualArena();
  spare = undefined;
  try {
    return work(arena);
  } finally {
    arena.reset();
    if (arena.bytes <= KEEP_AT_MOST_BYTES) spare = arena;
  }
}
