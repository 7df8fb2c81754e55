import { describe, expect, it } from 'vitest';
import { usageSyncCheck } from '../../../shared/domain/onboarding/usage-sync-check';
import type { UsageSyncState } from '../../../shared/domain/usage-sources/sync-state';

const succeeded: UsageSyncState = {
  files: [{ key: 'cur/hourly/data/BILLING_PERIOD=2026-06/a.parquet', etag: 'e1', billingPeriod: '2026-06' }],
  commitmentIds: [],
  lastSyncAt: '2026-07-02T03:00:00.000Z',
  lastSuccessAt: '2026-07-02T03:00:00.000Z',
  rows: 4323,
  usedRows: 4323,
  skipped: '',
  outcome: { status: 'succeeded' },
};

describe('usageSyncCheck', () => {
  it('is missing before any sync', () => {
    expect(usageSyncCheck(null)).toEqual({
      feature: 'usage_sync',
      status: 'missing',
      detail: 'never synced',
    });
  });

  it('is available after a successful sync, saying when and how many rows it read', () => {
    expect(usageSyncCheck(succeeded)).toEqual({
      feature: 'usage_sync',
      status: 'available',
      detail: 'last synced 2026-07-02T03:00:00.000Z: 4323 rows read, 4323 used',
    });
  });

  it('warns after a failed sync, naming the file and why, and which earlier sync is still used', () => {
    // Prepare
    const failed: UsageSyncState = {
      ...succeeded,
      lastSyncAt: '2026-07-03T03:00:00.000Z',
      outcome: {
        status: 'failed',
        file: 'cur/hourly/data/BILLING_PERIOD=2026-07/b.parquet',
        reason: 'The Parquet file cannot be read: invalid footer',
      },
    };

    // Act
    const item = usageSyncCheck(failed);

    // Assess
    expect(item).toEqual({
      feature: 'usage_sync',
      status: 'warning',
      detail:
        'the sync of 2026-07-03T03:00:00.000Z failed reading cur/hourly/data/BILLING_PERIOD=2026-07/b.parquet: The Parquet file cannot be read: invalid footer; the sync of 2026-07-02T03:00:00.000Z is still used',
    });
  });

  it('warns after a first sync that failed before any file, with no earlier sync to fall back on', () => {
    // Prepare
    const failed: UsageSyncState = {
      files: [],
      commitmentIds: [],
      lastSyncAt: '2026-07-03T03:00:00.000Z',
      lastSuccessAt: null,
      rows: 0,
      usedRows: 0,
      skipped: '',
      outcome: {
        status: 'failed',
        file: null,
        reason: 'AccessDenied: not authorized to perform sts:AssumeRole',
      },
    };

    // Act
    const item = usageSyncCheck(failed);

    // Assess
    expect(item.status).toBe('warning');
    expect(item.detail).toBe(
      'the sync of 2026-07-03T03:00:00.000Z failed before reading any file: AccessDenied: not authorized to perform sts:AssumeRole',
    );
  });
});
