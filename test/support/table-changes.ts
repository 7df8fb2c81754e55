import type { StoredItem } from '../../shared/store/table-client';

/**
 * What changed between two snapshots of the table (`snapshot()` of an in-process API or a local
 * store observer): one line per item added, removed or rewritten with other values, named by its
 * key; empty when the table is as it was.
 *
 * `expect(after).toEqual(before)` proves the same, but walks every value of every item (the seeded
 * demo org's usage is tens of megabytes) and, on a failure, prints the whole table; this compares
 * one serialisation per item and names only the items that differ.
 */
export function tableChanges(before: readonly StoredItem[], after: readonly StoredItem[]): string[] {
  const was = new Map(before.map((item) => [keyOf(item), item]));
  const changes: string[] = [];
  for (const item of after) {
    const key = keyOf(item);
    const old = was.get(key);
    was.delete(key);
    if (!old) changes.push(`added ${key}`);
    else if (!sameValues(old, item)) changes.push(`changed ${key}`);
  }
  for (const key of was.keys()) changes.push(`removed ${key}`);
  return changes;
}

function keyOf(item: StoredItem): string {
  return `${String(item.PK)} ${String(item.SK)}`;
}

/**
 * The same serialisation is the same values. Different ones may still be the same values written
 * in another attribute order, so those are compared again with every object's keys sorted.
 */
function sameValues(a: StoredItem, b: StoredItem): boolean {
  if (JSON.stringify(a, faithful) === JSON.stringify(b, faithful)) return true;
  return JSON.stringify(a, sortedKeys) === JSON.stringify(b, sortedKeys);
}

/** Sets and binary values keep their contents in JSON (the document client reads them so). */
function faithful(_key: string, value: unknown): unknown {
  if (value instanceof Set) return { set: [...value].map((member) => faithful('', member)).sort() };
  if (value instanceof Uint8Array) return { binary: Buffer.from(value).toString('base64') };
  return value;
}

function sortedKeys(key: string, value: unknown): unknown {
  const kept = faithful(key, value);
  if (kept === null || typeof kept !== 'object' || Array.isArray(kept)) return kept;
  return Object.fromEntries(
    Object.entries(kept as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
