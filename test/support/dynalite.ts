import { randomUUID } from 'node:crypto';
import { startMemoryDynamo } from '../../local/store/local-dynamo';
import { createLocalDocumentClient } from '../../local/store/local-dynamo-client';
import type { Repositories } from '../../shared/app/ports';
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
    tableName: `test-${randomUUID()}`,
  };
  await createTableIfMissing(table.client, table.tableName);
  return {
    ...table,
    store: createStore(table),
    async close() {
      table.client.destroy();
      await engine.close();
    },
  };
}
