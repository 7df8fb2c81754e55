import { describe, expect, it } from 'vitest';
import { sortList } from '../../../shared/app/list-order';

interface Row {
  readonly id: string;
  readonly cost: number;
  readonly type: string;
}

const rows: Row[] = [
  { id: 'c', cost: 2, type: 'standard_ris' },
  { id: 'a', cost: 1, type: 'compute_plans' },
  { id: 'd', cost: 2, type: 'Standard' },
  { id: 'b', cost: 3, type: 'standard_ris' },
];
const ids = (sorted: readonly Row[]) => sorted.map((row) => row.id);
const idOf = (row: Row) => row.id;

describe('list order', () => {
  it('sorts by the key, ties by id ascending in both directions', () => {
    // Act
    const ascending = sortList(rows, { key: (row) => row.cost, descending: false }, idOf);
    const descending = sortList(rows, { key: (row) => row.cost, descending: true }, idOf);

    // Assess
    expect(ids(ascending)).toEqual(['a', 'c', 'd', 'b']);
    expect(ids(descending)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('compares strings by code unit, upper case before lower case', () => {
    expect(ids(sortList(rows, { key: (row) => row.type, descending: false }, idOf))).toEqual([
      'd',
      'a',
      'b',
      'c',
    ]);
  });

  it('keeps the natural order without a key, reversed when descending', () => {
    expect(ids(sortList(rows, { key: null, descending: false }, idOf))).toEqual(['c', 'a', 'd', 'b']);
    expect(ids(sortList(rows, { key: null, descending: true }, idOf))).toEqual(['b', 'd', 'a', 'c']);
  });

  it('leaves the list it was given as it was', () => {
    // Prepare
    const given = [...rows];

    // Act
    sortList(given, { key: (row) => row.cost, descending: true }, idOf);
    sortList(given, { key: null, descending: true }, idOf);

    // Assess
    expect(given).toEqual(rows);
  });
});
