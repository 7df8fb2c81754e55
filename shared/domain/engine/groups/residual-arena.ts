/**
 * Memory for the residual arrays existing commitments leave (existing-commitments.ts): lent to one
 * plan computation at a time, and kept for the next.
 *
 * Why: a stream that a commitment covers gets its own residual array (one value per hour of the
 * window). Fresh memory costs more than the covering written into it: the system maps and zeroes
 * every page on first touch, so covering into reused blocks is the faster (figures:
 * docs/benchmarks.md, `npm run bench`). A warm Lambda computes plan after plan, so
 * reuse is the common case: the process's composition root owns one arena and passes it to every
 * computation (computePlans resets it first). The engine itself keeps no memory between calls.
 *
 * The arrays of one computation are overwritten by the next, so nothing a computation returns may
 * read them: plans keep figures, not residuals.
 */

export interface ResidualArena {
  /** An array of `length` values, contents unspecified: the caller writes every one. */
  take(length: number): Float64Array;
  /** Makes every array taken so far available again (and frees the memory of a very large fleet). */
  reset(): void;
  /** Bytes the arena holds. */
  readonly bytes: number;
}

/** 2 MiB: a few hundred streams' copies per block, one allocation for all of them. */
const BLOCK_LENGTH = 1 << 18;

/** Above this size a reset frees the blocks instead of keeping them (a very large fleet's copies). */
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
      if (bytes > KEEP_AT_MOST_BYTES) {
        blocks.length = 0;
        bytes = 0;
      }
    },
    get bytes() {
      return bytes;
    },
  };
}
