import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './keys';
import type { StoredItem, TableClient } from './table-client';

/** One write of a batch: put a whole item (keys included) or delete one. */
export type BatchWrite = { readonly put: StoredItem & ItemKey } | { readonly delete: ItemKey };

/** DynamoDB takes at most 25 writes per BatchWriteItem. */
const BATCH_SIZE = 25;
const BATCHES_IN_FLIGHT = 4;
const MAX_ATTEMPTS = 8;

type WriteRequest = { PutRequest: { Item: StoredItem } } | { DeleteRequest: { Key: ItemKey } };

function toRequest(write: BatchWrite): WriteRequest {
  return 'put' in write ? { PutRequest: { Item: write.put } } : { DeleteRequest: { Key: write.delete } };
}

/**
 * Unconditional puts and deletes, 25 per request with a few requests in flight: far fewer round
 * trips than one write per item, for writes whose repetition is harmless (a retry puts the same
 * items again). Writes DynamoDB leaves unprocessed (throttling) are sent again after a pause
 * that doubles each time. A key may appear once per call.
 */
export async function writeInBatches(table: TableClient, writes: readonly BatchWrite[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < writes.length) {
      const batch = writes.slice(next, next + BATCH_SIZE);
      next += BATCH_SIZE;
      await writeBatch(table, batch.map(toRequest));
    }
  };
  const workers = Math.min(BATCHES_IN_FLIGHT, Math.ceil(writes.length / BATCH_SIZE));
  await Promise.all(Array.from({ length: workers }, worker));
}

async function writeBatch(table: TableClient, requests: WriteRequest[]): Promise<void> {
  let pending = requests;
  for (let attempt = 1; ; attempt++) {
    const { UnprocessedItems } = await table.client.send(
      new BatchWriteCommand({ RequestItems: { [table.tableName]: pending } }),
    );
    pending = (UnprocessedItems?.[table.tableName] ?? []) as WriteRequest[];
    if (pending.length === 0) return;
    if (attempt === MAX_ATTEMPTS) {
      throw new Error(`DynamoDB left ${pending.length} writes unprocessed after ${MAX_ATTEMPTS} attempts`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
  }
}
