import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import type { PurchaseMessage } from '../app/ports/purchase-queue';

/**
 * The purchase queue's wire format, shared by its adapters (SQS, the local queue) and the
 * processor that reads their records. The port itself (the messages, the queue, its send error)
 * belongs to the use cases (shared/app/ports/purchase-queue.ts), re-exported here for the code
 * and tests that name it from this module.
 */
export {
  deduplicationId,
  type PurchaseMessage,
  type PurchaseQueue,
  PurchaseQueueSendError,
  type UnsentPurchase,
} from '../app/ports/purchase-queue';

/**
 * The consumer side, exactly as Lambda's SQS event source calls a function with
 * `ReportBatchItemFailures`: the records listed in `batchItemFailures` stay on the queue and are
 * delivered again after the visibility timeout; the others are deleted.
 */
export type PurchaseQueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** FIFO group: one org's purchases are processed in order, different orgs in parallel. */
export function messageGroupId(message: PurchaseMessage): string {
  return message.orgId;
}

export function purchaseMessageBody(message: PurchaseMessage): string {
  return JSON.stringify({
    orgId: message.orgId,
    planId: message.planId,
    lineItemId: message.lineItemId,
    ...(message.revision === undefined ? {} : { revision: message.revision }),
  });
}

const purchaseMessageSchema = z.object({
  orgId: z.string().check(z.minLength(1)),
  planId: z.string().check(z.minLength(1)),
  lineItemId: z.string().check(z.minLength(1)),
  revision: z.optional(z.string().check(z.minLength(1))),
});

/** Reads a record's body; a PurchaseMessageFormatError (naming the bad fields) when it is not one. */
export function parsePurchaseMessage(body: string): PurchaseMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new PurchaseMessageFormatError('the body is not JSON');
  }
  const parsed = purchaseMessageSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(body)');
    throw new PurchaseMessageFormatError(`bad or missing ${[...new Set(fields)].join(', ')}`);
  }
  return parsed.data;
}

export class PurchaseMessageFormatError extends Error {
  override readonly name = 'PurchaseMessageFormatError';
  constructor(reason: string) {
    super(`Not a purchase message: ${reason}`);
  }
}
