import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExportFile } from '../../../shared/domain/usage-sources/export-files';
import { rowGroupRanges, syncPartId, syncParts } from '../../../shared/domain/usage-sources/sync-parts';

const file = (key: string, etag = 'e1'): ExportFile => ({ key, etag, size: 1, billingPeriod: '2026-06' });

describe('rowGroupRanges', () => {
  it('cuts row groups into consecutive ranges of at most the limit', () => {
    // Groups of 3, 3, 3, 5 and 1 million rows, at most 6 million a range: 3+3, 3 (3+5 > 6), 5+1.
    expect(rowGroupRanges([3, 3, 3, 5, 1], 6)).toEqual([
      { first: 0, end: 2 },
      { first: 2, end: 3 },
      { first: 3, end: 5 },
    ]);
  });

  it('covers every group once, in order, each range under the limit unless it is one larger group', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 200 }),
        (sizes, max) => {
          const ranges = rowGroupRanges(sizes, max);
          const covered = ranges.flatMap(({ first, end }) =>
            Array.from({ length: end - first }, (_, index) => first + index),
          );
          expect(covered).toEqual(sizes.map((_, index) => index));
          for (const { first, end } of ranges) {
            const rows = sizes.slice(first, end).reduce((sum, size) => sum + size, 0);
            expect(rows <= max || end - first === 1).toBe(true);
          }
        },
      ),
    );
  });
});

describe('syncParts', () => {
  it('reads small and CSV files whole, and a Parquet file over the limit by row-group ranges', () => {
    // Prepare: a.csv (no row groups), b.parquet of 4 groups of 2 rows under a limit of 4 rows.
    const parts = syncParts(
      [file('a.csv'), file('b.parquet'), file('c.parquet')],
      new Map([
        ['a.csv', null],
        ['b.parquet', [2, 2, 2, 2]],
        ['c.parquet', [1, 1]],
      ]),
      4,
    );

    // Assess
    expect(parts.map((part) => [part.key, part.rowGroups])).toEqual([
      ['a.csv', null],
      ['b.parquet', { first: 0, end: 2 }],
      ['b.parquet', { first: 2, end: 4 }],
      ['c.parquet', null],
    ]);
  });

  it('names a part by its file key, ETag and range', () => {
    const [whole] = syncParts([file('a.parquet')], new Map(), 4);
    const [again] = syncParts([file('a.parquet')], new Map(), 4);
    const [delivered] = syncParts([file('a.parquet', 'e2')], new Map(), 4);
    const ranged = syncParts([file('a.parquet')], new Map([['a.parquet', [4, 4]]]), 4);
    if (!whole || !again || !delivered) throw new Error('no part');
    expect(syncPartId(again)).toBe(syncPartId(whole));
    expect(syncPartId(delivered)).not.toBe(syncPartId(whole));
    expect(new Set([whole, ...ranged].map(syncPartId)).size).toBe(3);
  });
});
