import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AppContext, Clock, WithPlanComputation } from '../shared/app/ports';
import { readTenantThrottle, type TenantThrottle } from '../shared/http/tenant-rate-limit';
import { createAppContext } from '../shared/runtime/app-context';
import type { TableClient } from '../shared/store/table-client';
import { createTableIfMissing } from '../shared/store/table-setup';
import { type LocalDynamo, openLocalDynamo } from './store/local-dynamo';
import { createLocalDocumentClient } from './store/local-dynamo-client';
import { countStorageCalls, type StorageCallCounter } from './store/storage-calls';

/** The embedded defaults: everything the local runtime needs, overridable from the environment. */
/** The local table's name; `TABLE_NAME` is for the deployed table (see bin/admin.ts). */
export const localTableName = 'commitment-planning';

export interface LocalConfig {
  /** Where the local data lives (dynalite's database, the demo credentials). */
  readonly dir: string;
  readonly host: string;
  readonly port: number;
  readonly tableName: string;
  /** Each API key's rate and burst: the deployed API's (`defaultTenantThrottle`) unless overridden. */
  readonly tenantThrottle: TenantThrottle;
  /**
   * How long the outbox takes to "send" each mail (`LOCAL_MAIL_DELAY_MS`, default 0): a slow mail
   * service, to see that the sign-in answer never waits for it.
   */
  readonly mailDelayMs: number;
}

/**
 * Powertools loggers take their service name from the environment, which CDK sets on Lambda;
 * the local runtime names itself unless the caller chose a name.
 */
export function nameLocalService(env: NodeJS.ProcessEnv): void {
  env.POWERTOOLS_SERVICE_NAME ??= 'commitment-planning-local';
}

export function readLocalConfig(env: NodeJS.ProcessEnv): LocalConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be 0..65535, got ${env.PORT}`);
  return {
    dir: resolve(env.LOCAL_DIR ?? '.local'),
    host: env.HOST ?? '127.0.0.1',
    port,
    tableName: localTableName,
    tenantThrottle: readTenantThrottle(env),
    mailDelayMs: readMailDelay(env),
  };
}

function readMailDelay(env: NodeJS.ProcessEnv): number {
  const delay = Number(env.LOCAL_MAIL_DELAY_MS ?? 0);
  if (!Number.isInteger(delay) || delay < 0) {
    throw new Error(
      `LOCAL_MAIL_DELAY_MS must be a whole number of milliseconds, got ${env.LOCAL_MAIL_DELAY_MS}`,
    );
  }
  return delay;
}

export interface LocalRuntime {
  readonly ctx: WithPlanComputation<AppContext>;
  readonly dynamo: LocalDynamo;
  /** The table the context stores in (the Bearer requests' throttle counts there too). */
  readonly table: TableClient;
  /** The storage calls this process sent (for benchmarks: docs/plans-api.md). */
  readonly storageCalls: StorageCallCounter;
  close(): Promise<void>;
}

/**
 * Opens the local store (starting dynalite under `dir`, or joining the engine another local
 * process runs there) and builds the use cases' context on it, with the real clock unless a test
 * gives one it moves.
 */
export async function openLocalRuntime(
  config: Pick<LocalConfig, 'dir' | 'tableName'>,
  clock?: Clock,
): Promise<LocalRuntime> {
  const dynamo = await openLocalDynamo({ dir: config.dir });
  const table = {
    client: createLocalDocumentClient(dynamo),
    tableName: config.tableName,
  };
  await createTableIfMissing(table.client, config.tableName);
  const storageCalls = countStorageCalls(table);
  return {
    ctx: createAppContext(table, clock),
    dynamo,
    table,
    storageCalls,
    async close() {
      table.client.destroy();
      await dynamo.close();
    },
  };
}

/** `npm start -- --reset`: forget every local org, key and plan. */
export async function resetLocalData(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
