import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Repositories } from '../../shared/app/ports';
import { startMemoryDynamo } from '../../shared/store/local-dynamo';
import { createLocalDocumentClient } from '../../shared/store/local-dynamo-client';
import { createStore } from '../../shared/store/store';
import { createTableIfMissing } from '../../shared/store/table-setup';

export interface TestTable {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly store: Repositories;
  close(): Promise<void>;
}

/**
 * An in-memory dynalite on a free port with the service's table created under a unique name.
 * Call in `beforeAll` and close in `afterAll`, one per test file.
 */
export async function startTestTable(): Promise<TestTable> {
  const engine = await startMemoryDynamo();
  const client = createLocalDocumentClient(engine);
  const tableName = `test-${randomUUID()}`;
  await createTableIfMissing(client, tableName);
  return {
    client,
    tableName,
    store: createStore({ client, tableName }),
    async close() {
      client.destroy();
      await engine.close();
    },
  };
}
