import { SQSClient } from '@aws-sdk/client-sqs';
import type { PurchaseQueue } from '../app/ports';
import { sqsDeadLetters } from '../queue/sqs-dead-letters';
import { sqsPurchaseQueue } from '../queue/sqs-purchase-queue';
import { configuredRegion } from './aws';

/**
 * The purchase queue of the functions that send purchases (apply, the sweep) on AWS: an SQS FIFO
 * queue from `PURCHASE_QUEUE_URL`. Kept apart from the functions' contexts so that only functions
 * that send purchases bundle the SQS client.
 */
export function awsPurchaseQueue(env: NodeJS.ProcessEnv): PurchaseQueue {
  const queueUrl = env.PURCHASE_QUEUE_URL;
  if (!queueUrl) throw new Error('PURCHASE_QUEUE_URL is not set: the FIFO queue purchases are sent to');
  return sqsPurchaseQueue({
    client: new SQSClient({ region: configuredRegion(env) }),
    queueUrl,
  });
}

/** The dead-letter queue of the purchase queue, from `PURCHASE_DLQ_URL` (operators' CLI). */
export function awsDeadLetters(env: NodeJS.ProcessEnv): ReturnType<typeof sqsDeadLetters> {
  const deadLetterQueueUrl = env.PURCHASE_DLQ_URL;
  if (!deadLetterQueueUrl) {
    throw new Error(
      'PURCHASE_DLQ_URL is not set: the purchase dead-letter queue (the stateful stack output)',
    );
  }
  return sqsDeadLetters({
    client: new SQSClient({ region: configuredRegion(env) }),
    deadLetterQueueUrl,
  });
}
