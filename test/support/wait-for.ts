/**
 * Waiting in tests is for a condition, never for a time (docs/testing.md): a loaded machine makes
 * everything slower, and a test must fail only when the behaviour is wrong.
 */

export interface WaitOptions {
  /** The pause between two reads, so the process being waited on gets the CPU (not a budget). */
  readonly everyMs?: number;
  /**
   * Says why the condition can no longer hold (the process that would make it hold has exited),
   * or nothing while it still can: the wait then fails at once with that reason.
   */
  readonly gaveUp?: () => string | undefined;
}

/**
 * Reads `probe` until it answers something other than `undefined`, and answers that. There is no
 * deadline: a condition that never holds is a hang, which vitest's hang detector reports
 * (vitest.config.ts); `gaveUp` ends the wait at once when it cannot hold any more.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, options: WaitOptions = {}): Promise<T> {
  const { everyMs = 50, gaveUp } = options;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const reason = gaveUp?.();
    if (reason !== undefined) throw new Error(reason);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
