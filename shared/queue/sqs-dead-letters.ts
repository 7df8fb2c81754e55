import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';
import { type PurchaseMessage, PurchaseMessageFormatError, parsePurchaseMessage } from './purchase-queue';

/** A message the queue gave up on after its last receive (docs/purchases.md: max receives 5). */
export interface DeadLetter {
  readonly messageId: string;
  /** The purchase it names; null when the body is not a purchase message. */
  readonly message: PurchaseMessage | null;
  readonly receiveCount: number;
  readonly firstSentAt: string | null;
}

/** SQS returns at most ten messages per receive. */
const RECEIVE_LIMIT = 10;

/**
 * The purchase queue's dead-letter queue on SQS, for operators (bin/admin.ts `dead-letters`):
 * lists what it holds without consuming it (each message is received with a short visibility
 * timeout and left in place), and moves everything back to the purchase queue with a message
 * move task. The records stay the truth: a redriven message only wakes the processor.
 */
export function sqsDeadLetters(options: { readonly client: SQSClient; readonly deadLetterQueueUrl: string }) {
  const { client, deadLetterQueueUrl } = options;
  return {
    async list(max = 100): Promise<DeadLetter[]> {
      const seen = new Map<string, DeadLetter>();
      while (seen.size < max) {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: deadLetterQueueUrl,
            MaxNumberOfMessages: Math.min(RECEIVE_LIMIT, max - seen.size),
            // Hidden briefly so the next receive returns others; back in place a moment later.
            VisibilityTimeout: 5,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
          }),
        );
        const fresh = Messages.filter((m) => m.MessageId && !seen.has(m.MessageId));
        if (fresh.length === 0) break;
        for (const m of fresh) {
          const sent = m.Attributes?.SentTimestamp;
          seen.set(m.MessageId as string, {
            messageId: m.MessageId as string,
            message: purchaseOf(m.Body ?? ''),
            receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 0),
            firstSentAt: sent ? new Date(Number(sent)).toISOString() : null,
          });
        }
      }
      return [...seen.values()];
    },

    /** Starts moving every dead letter back to the queue it came from; answers the task's handle. */
    async redrive(): Promise<string | null> {
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: deadLetterQueueUrl, AttributeNames: ['QueueArn'] }),
      );
      const sourceArn = Attributes?.QueueArn;
      if (!sourceArn) throw new Error(`No ARN for the dead-letter queue ${deadLetterQueueUrl}`);
      const { TaskHandle } = await client.send(new StartMessageMoveTaskCommand({ SourceArn: sourceArn }));
      return TaskHandle ?? null;
    },
  };
}

function purchaseOf(body: string): PurchaseMessage | null {
  try {
    return parsePurchaseMessage(body);
  } catch (error) {
    if (error instanceof PurchaseMessageFormatError) return null;
    throw error;
  }
}
