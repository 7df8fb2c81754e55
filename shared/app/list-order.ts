/** The value a list is sorted by: a number, or a string compared by code unit (not by locale). */
export type SortKey<T> = (item: T) => string | number;

/**
 * How a list is ordered. Without a key the list keeps its natural order (the order the plan
 * applies its line items, and their matches), which `descending` reverses.
 */
export interface ListOrder<T> {
  readonly key: SortKey<T> | null;
  readonly descending: boolean;
}

/**
 * Sorts by the order's key; items with equal keys are ordered by `idOf`, ascending whatever the
 * direction, so that pages of one order never overlap or skip an item.
 */
export function sortList<T>(items: readonly T[], order: ListOrder<T>, idOf: (item: T) => string): T[] {
  const { key, descending } = order;
  if (key === null) return descending ? [...items].reverse() : [...items];
  const direction = descending ? -1 : 1;
  return items
    .map((item) => ({ item, value: key(item), id: idOf(item) }))
    .sort((a, b) => direction * compare(a.value, b.value) || compare(a.id, b.id))
    .map(({ item }) => item);
}

function compare(a: string | number, b: string | number): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
