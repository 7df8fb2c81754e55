import { SQSClient } from '@aws-sdk/client-sqs';
import { bundledCatalog } from '../app/bundled-catalog';
import type { ApplyContext } from '../app/plan-application';
import type { PlanComputation } from '../app/ports';
import type { PurchaseQueue } from '../queue/purchase-queue';
import { sqsDeadLetters } from '../queue/sqs-dead-letters';
import { sqsPurchaseQueue } from '../queue/sqs-purchase-queue';
import { configuredRegion } from './aws';
import { installable } from './installable';
import { lambdaPlanComputation } from './lambda-plan-computation';

/**
 * The purchase queue of the functions that send purchases (apply, the sweep): on Lambda an SQS
 * FIFO queue from `PURCHASE_QUEUE_URL`, built on first use; the local runtime installs its
 * in-process queue first. Kept apart from current.ts so that only functions that send purchases
 * bundle the SQS client.
 */
const queue = installable(() => createSqsPurchaseQueue(process.env));

export const installPurchaseQueue = queue.install;
export const purchaseQueue = queue.get;

function createSqsPurchaseQueue(env: NodeJS.ProcessEnv): PurchaseQueue {
  const queueUrl = env.PURCHASE_QUEUE_URL;
  if (!queueUrl) throw new Error('PURCHASE_QUEUE_URL is not set: the FIFO queue purchases are sent to');
  return sqsPurchaseQueue({
    client: new SQSClient({ region: configuredRegion(env) }),
    queueUrl,
  });
}

/**
 * What the apply and purchase operations (#8, #13) and the sweep run with: the function's own
 * context (current.ts) with the purchase queue and the bundled catalog.
 */
export function applyContext<C extends object>(
  base: C,
): C & Pick<ApplyContext, 'purchaseQueue' | 'catalog' | 'planComputation'> {
  return {
    ...base,
    purchaseQueue: purchaseQueue(),
    catalog: bundledCatalog,
    planComputation: planComputationOf(base),
  };
}

let onLambda: PlanComputation | undefined;

/**
 * The installed context's plan computation (local runtime, tests), else the plan-computation
 * function's, made on first use (a sweep never needs it).
 */
function planComputationOf(base: object): PlanComputation {
  if ('planComputation' in base && typeof base.planComputation === 'function') {
    return base.planComputation as PlanComputation;
  }
  return (orgId, provider) => {
    onLambda ??= lambdaPlanComputation(process.env);
    return onLambda(orgId, provider);
  };
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
