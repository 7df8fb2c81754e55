import type { Clock } from '../../app/ports';

export interface BoundedCacheOptions {
  /** Most entries kept; the least recently used one goes first. */
  readonly maxEntries: number;
  /** An entry older than this is read again. */
  readonly maxAgeMs: number;
  readonly clock: Clock;
}

/**
 * An in-process cache of values loaded by key: at most `maxEntries`, least recently used out
 * first, each kept at most `maxAgeMs`. Concurrent gets of one missing key share one load; a load
 * that fails or answers null is not kept.
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, { readonly value: Promise<V | null>; readonly loadedAt: number }>();

  constructor(private readonly options: BoundedCacheOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
    }
  }

  get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const now = this.options.clock.now().getTime();
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    if (entry && now - entry.loadedAt < this.options.maxAgeMs) {
      // Re-inserted last: a Map iterates in insertion order, so the first key is the least recently used.
      this.#entries.set(key, entry);
      return entry.value;
    }
    const value = load();
    const loaded = { value, loadedAt: now };
    this.#entries.set(key, loaded);
    const forget = () => {
      if (this.#entries.get(key) === loaded) this.#entries.delete(key);
    };
    value.then((result) => result === null && forget(), forget);
    while (this.#entries.size > this.options.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
