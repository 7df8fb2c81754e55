import { randomUUID } from 'node:crypto';
import type { Repositories } from '../../shared/app/ports';
import { startMemoryDynamo } from '../../shared/store/local-dynamo';
import {
  createLocalDocumentClient,
  createLocalPointReadClient,
} from '../../shared/store/local-dynamo-client';
import { createStore } from '../../shared/store/store';
import type { TableClient } from '../../shared/store/table-client';
import { createTableIfMissing } from '../../shared/store/table-setup';

export interface TestTable extends TableClient {
  readonly store: Repositories;
  close(): Promise<void>;
}

/**
 * An in-memory dynalite on a free port with the service's table created under a unique name.
 * Call in `beforeAll` and close in `afterAll`, one per test file.
 */
export async function startTestTable(): Promise<TestTable> {
  const engine = await startMemoryDynamo();
  const table: TableClient = {
    client: createLocalDocumentClient(engine),
    pointReads: createLocalPointReadClient(engine),
    tableName: `test-${randomUUID()}`,
  };
  await createTableIfMissing(table.client, table.tableName);
  return {
    ...table,
    store: createStore(table),
    async close() {
      table.client.destroy();
      table.pointReads.destroy();
      await engine.close();
    },
  };
}
