import {
  type BatchResultErrorEntry,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import {
  deduplicationId,
  messageGroupId,
  type PurchaseMessage,
  type PurchaseQueue,
  PurchaseQueueSendError,
  purchaseMessageBody,
  type UnsentPurchase,
} from './purchase-queue';

/** SendMessageBatch takes at most ten entries. */
export const SQS_BATCH_LIMIT = 10;

export interface SqsPurchaseQueueOptions {
  readonly client: SQSClient;
  /** The FIFO queue's URL. */
  readonly queueUrl: string;
  /** Sends of one entry, retries included (entries SQS reports as failed by its own fault). */
  readonly maxAttempts?: number;
  /** Waits before retry `attempt` (1 for the first retry); exponential from 50 ms by default. */
  readonly pause?: (attempt: number) => Promise<void>;
}

const defaultPause = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, 50 * 2 ** (attempt - 1)));

/**
 * The purchase queue on an SQS FIFO queue. Whole-call errors (throttling, network) are retried by
 * the SDK client itself; this adapter retries the entries a successful call reports as failed,
 * except sender faults (a malformed entry fails the same way every time).
 */
export function sqsPurchaseQueue(options: SqsPurchaseQueueOptions): PurchaseQueue {
  const maxAttempts = options.maxAttempts ?? 3;
  const pause = options.pause ?? defaultPause;

  async function sendBatch(batch: readonly PurchaseMessage[]): Promise<UnsentPurchase[]> {
    // Entry ids are positions in the batch: unique, as SQS requires, and stable across retries.
    let pending = batch.map((message, index) => ({ id: String(index), message }));
    const unsent: UnsentPurchase[] = [];
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > 1) await pause(attempt - 1);
      let failed: BatchResultErrorEntry[];
      try {
        const result = await options.client.send(
          new SendMessageBatchCommand({ QueueUrl: options.queueUrl, Entries: pending.map(entryOf) }),
        );
        failed = result.Failed ?? [];
      } catch (error) {
        // The client has already retried what is retryable: the rest of the batch is not sent.
        const code = error instanceof Error ? error.name : 'Error';
        const reason = error instanceof Error ? error.message : String(error);
        unsent.push(...pending.map(({ message }) => ({ message, code, reason })));
        return unsent;
      }
      const byId = new Map(pending.map((entry) => [entry.id, entry]));
      const retry: typeof pending = [];
      for (const failure of failed) {
        const entry = byId.get(failure.Id ?? '');
        if (!entry) continue;
        if (failure.SenderFault || attempt >= maxAttempts) {
          unsent.push({
            message: entry.message,
            code: failure.Code ?? 'Unknown',
            reason: failure.Message ?? '',
          });
        } else {
          retry.push(entry);
        }
      }
      pending = retry;
    }
    return unsent;
  }

  return {
    async send(messages) {
      const unsent: UnsentPurchase[] = [];
      for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
        unsent.push(...(await sendBatch(messages.slice(start, start + SQS_BATCH_LIMIT))));
      }
      if (unsent.length > 0) throw new PurchaseQueueSendError(unsent);
    },
  };
}

function entryOf({ id, message }: { id: string; message: PurchaseMessage }): SendMessageBatchRequestEntry {
  return {
    Id: id,
    MessageBody: purchaseMessageBody(message),
    MessageGroupId: messageGroupId(message),
    MessageDeduplicationId: deduplicationId(message),
  };
}
