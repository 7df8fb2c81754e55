import type { UsageSyncStateRepository } from '../app/ports/usage-sync';
import type { Provider } from '../domain/engine/shapes/model';
import type { SyncedFile, SyncOutcome, UsageSyncState } from '../domain/usage-sources/sync-state';
import { upsert } from './conditional-writes';
import { usageSyncKey } from './keys';
import { getItem, type TableClient } from './table-client';

/** The usage sync state (`ORG#<org>` / `USAGE_SYNC#<provider>`, docs/data-model.md), written whole. */
export function createUsageSyncStateRepository(table: TableClient): UsageSyncStateRepository {
  return {
    async get(orgId: string, provider: Provider): Promise<UsageSyncState | null> {
      const item = await getItem(table, usageSyncKey(orgId, provider));
      if (!item) return null;
      return {
        files: (item.files as SyncedFile[] | undefined) ?? [],
        commitmentIds: (item.commitmentIds as string[] | undefined) ?? [],
        lastSyncAt: item.lastSyncAt as string,
        lastSuccessAt: (item.lastSuccessAt as string | null | undefined) ?? null,
        rows: (item.rows as number | undefined) ?? 0,
        // States written before skipped rows were kept: every row counted as used.
        usedRows: (item.usedRows as number | undefined) ?? (item.rows as number | undefined) ?? 0,
        skipped: (item.skipped as string | undefined) ?? '',
        outcome: item.outcome as SyncOutcome,
      };
    },
    async put(orgId, provider, state) {
      await upsert(table, usageSyncKey(orgId, provider), {
        type: 'usageSync',
        orgId,
        provider,
        files: state.files.map(({ key, etag, billingPeriod }) => ({ key, etag, billingPeriod })),
        commitmentIds: [...state.commitmentIds],
        lastSyncAt: state.lastSyncAt,
        lastSuccessAt: state.lastSuccessAt,
        rows: state.rows,
        usedRows: state.usedRows,
        skipped: state.skipped,
        outcome: state.outcome,
      });
    },
  };
}
