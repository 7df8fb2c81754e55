import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paginateScan } from '@aws-sdk/lib-dynamodb';
import type { LocalApi } from '../../local/local-api';
import { localTableName } from '../../local/local-runtime';
import { createLocalDocumentClient } from '../../local/store/local-dynamo-client';
import type { StoredItem } from '../../shared/store/table-client';

/**
 * The local API as `npm start` serves it, started in the test's process on a fresh directory:
 * requests still go over HTTP, but the test reaches the purchase pipeline (the simulated
 * marketplace, the queue) that a server in another process would keep to itself.
 */
export interface InProcessApi {
  readonly api: LocalApi;
  /** Its local directory (the simulated cloud's document among it). */
  readonly dir: string;
  /** Every item of the table, ordered by key, API keys' usage bookkeeping left out. */
  snapshot(): Promise<StoredItem[]>;
  stop(): Promise<void>;
}

export async function startInProcessApi(): Promise<InProcessApi> {
  // Request logs would flood the test output; set before the server's modules create their loggers.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const { startLocalApi } = await import('../../local/local-api');
  const { readLocalConfig } = await import('../../local/local-runtime');
  const dir = await mkdtemp(join(tmpdir(), 'e2e-in-process-'));
  const api = await startLocalApi(
    readLocalConfig({
      LOCAL_DIR: dir,
      HOST: '127.0.0.1',
      PORT: '0',
      TENANT_RATE_LIMIT: '1000000',
      TENANT_BURST_LIMIT: '1000000',
    }),
    { seedUsage: true },
  );
  const client = createLocalDocumentClient(api.runtime.dynamo);
  return {
    api,
    dir,
    async snapshot() {
      const items: StoredItem[] = [];
      for await (const page of paginateScan(
        { client },
        { TableName: localTableName, ConsistentRead: true },
      )) {
        items.push(...(page.Items ?? []).map(withoutKeyUsage));
      }
      return items.sort((a, b) => compare(String(a.PK), String(b.PK)) || compare(String(a.SK), String(b.SK)));
    },
    async stop() {
      client.destroy();
      await api.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function withoutKeyUsage(item: StoredItem): StoredItem {
  if (item.type !== 'api_key') return item;
  const { lastUsedAt: _lastUsedAt, version: _version, ...rest } = item;
  return rest;
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
