import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './keys';
import type { StoredItem, TableClient } from './table-client';

/** DynamoDB takes at most 100 keys per BatchGetItem. */
const BATCH_SIZE = 100;
const MAX_ATTEMPTS = 8;

/**
 * Reads the items of `keys` with strongly consistent reads, 100 keys per request; keys DynamoDB
 * leaves unprocessed (throttling) are asked again after a pause that doubles each time. Answers
 * the items found, in no particular order. A key may appear once per call.
 */
export async function getItems(table: TableClient, keys: readonly ItemKey[]): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for (let next = 0; next < keys.length; next += BATCH_SIZE) {
    let pending: ItemKey[] = keys.slice(next, next + BATCH_SIZE);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const { Responses, UnprocessedKeys } = await table.client.send(
        new BatchGetCommand({
          RequestItems: { [table.tableName]: { Keys: pending, ConsistentRead: true } },
        }),
      );
      items.push(...(Responses?.[table.tableName] ?? []));
      pending = (UnprocessedKeys?.[table.tableName]?.Keys ?? []) as ItemKey[];
      if (pending.length === 0) break;
      if (attempt === MAX_ATTEMPTS) {
        throw new Error(`DynamoDB left ${pending.length} reads unprocessed after ${MAX_ATTEMPTS} attempts`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    }
  }
  return items;
}
