import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExportFile } from '../../../shared/domain/usage-sources/export-files';
import {
  ownedCommitmentsToWrite,
  syncWork,
  type UsageSyncState,
} from '../../../shared/domain/usage-sources/sync-state';

const file = (key: string, etag: string, billingPeriod: string): ExportFile => ({
  key,
  etag,
  size: 1,
  billingPeriod,
});

function stateOf(files: readonly ExportFile[]): UsageSyncState {
  return {
    files: files.map(({ key, etag, billingPeriod }) => ({ key, etag, billingPeriod })),
    commitmentIds: [],
    lastSyncAt: '2026-11-01T00:00:00.000Z',
    lastSuccessAt: '2026-11-01T00:00:00.000Z',
    rows: 0,
    usedRows: 0,
    skipped: '',
    outcome: { status: 'succeeded' },
  };
}

const june1 = file('d/BILLING_PERIOD=2026-06/a-00001.parquet', 'e1', '2026-06');
const june2 = file('d/BILLING_PERIOD=2026-06/a-00002.parquet', 'e2', '2026-06');
const july1 = file('d/BILLING_PERIOD=2026-07/a-00001.parquet', 'e3', '2026-07');

describe('syncWork', () => {
  it('reads every file on the first sync', () => {
    // Act
    const work = syncWork([june1, june2, july1], null);

    // Assess
    expect(work).toEqual({ periods: ['2026-06', '2026-07'], read: [june1, june2, july1], skipped: [] });
  });

  it('reads nothing when every file is as stored', () => {
    // Act
    const work = syncWork([june1, june2, july1], stateOf([june1, june2, july1]));

    // Assess
    expect(work).toEqual({ periods: [], read: [], skipped: [june1, june2, july1] });
  });

  it('reads the whole period of a changed ETag, and of a new file', () => {
    // Act
    const changed = syncWork([june1, { ...june2, etag: 'e9' }, july1], stateOf([june1, june2, july1]));
    const added = syncWork([june1, june2, july1], stateOf([june1, june2]));

    // Assess
    expect(changed).toEqual({
      periods: ['2026-06'],
      read: [june1, { ...june2, etag: 'e9' }],
      skipped: [july1],
    });
    expect(added).toEqual({ periods: ['2026-07'], read: [july1], skipped: [june1, june2] });
  });

  it('reads a period again that lost a file, and keeps a period the export no longer lists', () => {
    // Act: June delivered again with one file; July no longer listed at all.
    const work = syncWork([june1], stateOf([june1, june2, july1]));

    // Assess
    expect(work).toEqual({ periods: ['2026-06'], read: [june1], skipped: [] });
  });

  it('splits the current files into read and skipped, reading exactly the periods with a difference', () => {
    const files = fc.array(
      fc.record({
        key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
        etag: fc.constantFrom('x', 'y'),
        size: fc.constant(1),
        billingPeriod: fc.constantFrom('2026-05', '2026-06', '2026-07'),
      }),
      { maxLength: 6 },
    );
    const unique = files.map((list) => [...new Map(list.map((each) => [each.key, each])).values()]);
    fc.assert(
      fc.property(unique, unique, (current, stored) => {
        // Act
        const work = syncWork(current, stateOf(stored));

        // Assess: the oracle compares each current period's (key, etag) pairs with the stored ones.
        const signature = (list: readonly ExportFile[], period: string) =>
          list
            .filter((each) => each.billingPeriod === period)
            .map((each) => `${each.key}=${each.etag}`)
            .sort()
            .join(',');
        for (const period of new Set(current.map((each) => each.billingPeriod))) {
          const differs = signature(current, period) !== signature(stored, period);
          expect(work.periods.includes(period)).toBe(differs);
        }
        expect([...work.read, ...work.skipped].length).toBe(current.length);
        for (const each of work.read) expect(work.periods).toContain(each.billingPeriod);
        for (const each of work.skipped) expect(work.periods).not.toContain(each.billingPeriod);
      }),
    );
  });
});

describe('ownedCommitmentsToWrite', () => {
  it('writes describe answers not held another way, and rewrites the previous sync own', () => {
    // Prepare
    const owned = [{ id: 'new' }, { id: 'synced-before' }, { id: 'imported' }, { id: 'purchased' }];

    // Act
    const written = ownedCommitmentsToWrite(owned, {
      storedIds: new Set(['synced-before', 'imported', 'bought-record']),
      previousSyncIds: new Set(['synced-before']),
      purchasedIds: new Set(['purchased']),
    });

    // Assess
    expect(written.map((each) => each.id)).toEqual(['new', 'synced-before']);
  });
});
