import { Duration } from 'aws-cdk-lib';
import { PURCHASE_CLAIM_SECONDS } from '../shared/app/purchase-processing';

/**
 * Timings of the purchase pipeline (docs/purchases.md) that the two stacks must agree on: the queue lives
 * in the stateful stack, the processor that consumes it in the API stack. The claim duration is
 * imported from the use case (a pure module: it loads no SDK and reads no environment), so the
 * queue cannot drift from what the processor does.
 */

/** The processor buys at most one batch of 10 line items, each a few provider calls. */
export const purchaseProcessorTimeout = Duration.seconds(60);

/**
 * How long a received message stays hidden. Lambda's guidance is at least 6x the function's
 * timeout (its SQS poller retries a throttled invoke within that time). And a message an attempt
 * crashed on must come back only after that attempt's claim has expired, or the retry finds the
 * record still held, reports it failed, and burns one of its 5 receives for nothing: a record is
 * claimed at most one function timeout after its message is received, so the claim ends at most
 * `timeout + PURCHASE_CLAIM_SECONDS` after it.
 */
export function purchaseVisibilityTimeout(processorTimeout: Duration, claimSeconds: number): Duration {
  const timeoutSeconds = processorTimeout.toSeconds();
  return Duration.seconds(Math.max(6 * timeoutSeconds, timeoutSeconds + claimSeconds));
}

export const purchaseQueueVisibilityTimeout = purchaseVisibilityTimeout(
  purchaseProcessorTimeout,
  PURCHASE_CLAIM_SECONDS,
);

/** Receives of one message before it moves to the dead-letter queue (docs/purchases.md). */
export const purchaseMaxReceiveCount = 5;

/** How often the sweep re-sends the messages of purchases that stopped moving. */
export const purchaseSweepInterval = Duration.minutes(5);
