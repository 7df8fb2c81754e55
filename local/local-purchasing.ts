import { Logger } from '@aws-lambda-powertools/logger';
import { PURCHASE_CLAIM_SECONDS } from '../shared/app/purchase-processing';
import type { SweepResult } from '../shared/app/purchase-sweep';
import { SimulatedMarketplace } from '../shared/cloud/marketplace/simulated-marketplace';
import { installMarketplace } from '../shared/runtime/marketplace';
import { installPurchaseQueue } from '../shared/runtime/purchasing';
import { localLambdaContext } from './lambda-context';
import type { InvocationScoped } from './local-invocation-scope';
import { createLocalPurchaseQueue, type LocalPurchaseQueue } from './queue/local-purchase-queue';

/** The processor's timeout locally, as on AWS (lib/: the processor function). */
const PROCESSOR_TIMEOUT_MS = 60_000;

/** How often the local runtime sweeps for purchases whose message was lost. */
export const LOCAL_SWEEP_INTERVAL_MS = 30_000;

export interface LocalPurchasing {
  readonly queue: LocalPurchaseQueue;
  /** The simulated provider purchases are made from (tests and demos may make it fail an offer). */
  readonly marketplace: SimulatedMarketplace;
  /** Runs the sweep once, as its schedule does. */
  sweep(): Promise<SweepResult>;
  close(): Promise<void>;
}

/**
 * The local purchase pipeline (DESIGN §9, local column): an in-process FIFO queue with SQS's
 * semantics delivers SQS-shaped events to the same processor handler Lambda runs, which buys from
 * the simulated marketplace; the same sweep handler runs on a timer. Installs the queue and the
 * marketplace for the handlers of this process.
 */
export async function startLocalPurchasing(options: {
  /** Runs each invocation in a scope of its own (openInvocationScopes, opened before any AWS SDK call). */
  readonly invocationScoped: InvocationScoped;
  readonly sweepIntervalMs?: number;
}): Promise<LocalPurchasing> {
  // Loaded here, after the local runtime named its service: their loggers read the name at load.
  const { handler: processPurchases } = await import('../functions/purchase-processor/handler');
  const { handler: sweepPurchases } = await import('../functions/purchase-sweep/handler');
  // Each delivery runs in an invocation scope of its own, as Lambda runs each invocation: the
  // batch processor keeps its records in the scope (AWS_LAMBDA_MAX_CONCURRENCY is set locally),
  // and the queue delivers from whatever request sent the message.
  const { invocationScoped } = options;
  const processScoped = invocationScoped(processPurchases);
  const sweepScoped = invocationScoped(sweepPurchases);
  const marketplace = new SimulatedMarketplace();
  installMarketplace(marketplace);
  const queue = createLocalPurchaseQueue({
    consumer: (event) =>
      processScoped(event, localLambdaContext('local-purchase-processor', PROCESSOR_TIMEOUT_MS)),
    // As on AWS: a message comes back only after an attempt's claim has expired.
    visibilityTimeoutMs: (PURCHASE_CLAIM_SECONDS + 30) * 1000,
  });
  installPurchaseQueue(queue);
  const sweep = () =>
    sweepScoped({}, localLambdaContext('local-purchase-sweep', PROCESSOR_TIMEOUT_MS)) as Promise<SweepResult>;
  const logger = new Logger({ serviceName: 'purchase-sweep' });
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => logger.error('purchase sweep failed', { error: error as Error }));
  }, options.sweepIntervalMs ?? LOCAL_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    queue,
    marketplace,
    sweep,
    async close() {
      clearInterval(timer);
      await queue.close();
    },
  };
}
