import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { localTableName } from '../../local/local-runtime';
import { openLocalDynamo } from '../../local/store/local-dynamo';
import { createLocalDocumentClient } from '../../local/store/local-dynamo-client';
import type { ItemKey } from '../../shared/store/keys';
import type { StoredItem } from '../../shared/store/table-client';

/** Reads the table of a running local server from the test process, through the engine it owns. */
export interface LocalStoreObserver {
  /**
   * Every item of the table, ordered by PK then SK. An API key's usage bookkeeping (`lastUsedAt`
   * and the `version` that write bumps) is left out: every authenticated request writes it, so a
   * request that changes nothing else would still differ.
   */
  snapshot(): Promise<StoredItem[]>;
  /** Closes the connection; call it before stopping the server. */
  close(): Promise<void>;
}

export async function observeLocalStore(dir: string): Promise<LocalStoreObserver> {
  const engine = await openLocalDynamo({ dir });
  if (engine.owned) {
    await engine.close();
    throw new Error(`No local server runs the engine of ${dir}: start the server first`);
  }
  const client = createLocalDocumentClient(engine);
  return {
    async snapshot() {
      const items: StoredItem[] = [];
      for await (const page of paginateScan(
        { client },
        { TableName: localTableName, ConsistentRead: true },
      )) {
        items.push(...(page.Items ?? []).map(withoutKeyUsage));
      }
      return items.sort(byKey);
    },
    async close() {
      client.destroy();
      await engine.close();
    },
  };
}

/** The item stored under `key` in a snapshot, if any. */
export function itemAt(snapshot: readonly StoredItem[], key: ItemKey): StoredItem | undefined {
  return snapshot.find((item) => item.PK === key.PK && item.SK === key.SK);
}

function withoutKeyUsage(item: StoredItem): StoredItem {
  if (item.type !== 'api_key') return item;
  const { lastUsedAt: _lastUsedAt, version: _version, ...rest } = item;
  return rest;
}

function byKey(a: StoredItem, b: StoredItem): number {
  return compare(String(a.PK), String(b.PK)) || compare(String(a.SK), String(b.SK));
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
