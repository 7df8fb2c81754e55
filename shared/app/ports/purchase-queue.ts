/**
 * The purchase queue port (docs/purchases.md): one message per line item to buy. The purchase records in
 * the table are the truth; a message only wakes the processor, so a lost or duplicated message
 * costs a retry, never a purchase (the processor claims each record with a conditional write).
 */
export interface PurchaseMessage {
  readonly orgId: string;
  readonly planId: string;
  readonly lineItemId: string;
  /**
   * The state of the record the message was sent for (its `updatedAt`): a record sent again after
   * it changed (a retry of a failed purchase, a re-applied plan) is a new message, not a
   * duplicate the queue's five-minute deduplication window would drop.
   */
  readonly revision?: string;
}

export interface PurchaseQueue {
  /**
   * Sends the messages (any number; adapters batch them). Resolves once every message is accepted
   * by the queue; a message already sent within the deduplication window is accepted and dropped.
   * Rejects with a PurchaseQueueSendError naming the messages that were not accepted.
   */
  send(messages: readonly PurchaseMessage[]): Promise<void>;
}

/** The same line item of the same plan, in the same state, is one message within the deduplication window. */
export function deduplicationId(message: PurchaseMessage): string {
  const id = `${message.planId}:${message.lineItemId}`;
  return message.revision === undefined ? id : `${id}:${message.revision}`;
}

/** A message the queue did not accept, and why. */
export interface UnsentPurchase {
  readonly message: PurchaseMessage;
  /** The queue's error code (SQS `Code`, or the thrown error's name). */
  readonly code: string;
  readonly reason: string;
}

/**
 * Some messages were not accepted after the adapter's retries. The others were, so a caller that
 * retries the whole send relies on deduplication; a sweep of the purchase records re-sends these.
 */
export class PurchaseQueueSendError extends Error {
  override readonly name = 'PurchaseQueueSendError';
  constructor(readonly unsent: readonly UnsentPurchase[]) {
    super(
      `${unsent.length} purchase message(s) not sent: ${unsent
        .map(({ message, code }) => `${deduplicationId(message)} (${code})`)
        .join(', ')}`,
    );
  }
}
