import { Logger } from '@aws-lambda-powertools/logger';
import type { AppContext, Marketplace, WithPlanComputation } from '../shared/app/ports';
import { PURCHASE_CLAIM_SECONDS } from '../shared/app/purchase-processing';
import type { SweepResult } from '../shared/app/purchase-sweep';
import { purchasingCatalog } from '../shared/app/stored-catalog';
import { SimulatedMarketplace } from '../shared/cloud/marketplace/simulated-marketplace';
import { localLambdaContext } from './lambda-context';
import { localMarketplace } from './local-azure-purchasing';
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
 * The local purchase pipeline (docs/purchases.md, local column): an in-process FIFO queue with SQS's
 * semantics delivers SQS-shaped events to the same processor handler Lambda runs, which buys Azure
 * lines through the simulated tenant's ARM and the rest from the simulated marketplace; the same
 * sweep handler runs on a timer. Both are built by their
 * functions' factories on `ctx`, the queue and the marketplace.
 */
export async function startLocalPurchasing(options: {
  /**
   * The local runtime's context: the processor's and the sweep's repositories, and the plan
   * computation in this process the processor recomputes plans with after a purchase.
   */
  readonly ctx: WithPlanComputation<AppContext>;
  /** Runs each invocation in a scope of its own (openInvocationScopes, opened before any AWS SDK call). */
  readonly invocationScoped: InvocationScoped;
  readonly sweepIntervalMs?: number;
  /**
   * What the processor buys from, given the simulated marketplace: by default Azure lines through
   * the simulated tenant's ARM under `dir` (local-azure-purchasing.ts) and the rest from it.
   */
  readonly marketplace?: (simulated: SimulatedMarketplace) => Marketplace;
  /** The local data directory (the simulated cloud) and the local server's address once listening. */
  readonly dir: string;
  readonly baseUrl?: () => string | null;
}): Promise<LocalPurchasing> {
  // Loaded here, after the local runtime named its service: their loggers read the name at load.
  const { createPurchaseProcessorHandler } = await import(
    '../functions/purchase-processor/purchase-processor-handler'
  );
  const { createPurchaseSweepHandler } = await import('../functions/purchase-sweep/purchase-sweep-handler');
  const { ctx } = options;
  const marketplace = new SimulatedMarketplace();
  const processing = {
    ...ctx,
    marketplace:
      options.marketplace?.(marketplace) ??
      localMarketplace(options.dir, ctx, options.baseUrl ?? (() => null), marketplace),
    catalog: purchasingCatalog(ctx.repos.catalog),
  };
  const processPurchases = createPurchaseProcessorHandler(() => processing);
  // Each delivery runs in an invocation scope of its own, as Lambda runs each invocation: the
  // batch processor keeps its records in the scope (AWS_LAMBDA_MAX_CONCURRENCY is set locally),
  // and the queue delivers from whatever request sent the message.
  const { invocationScoped } = options;
  const processScoped = invocationScoped(processPurchases);
  const queue = createLocalPurchaseQueue({
    consumer: (event) =>
      processScoped(event, localLambdaContext('local-purchase-processor', PROCESSOR_TIMEOUT_MS)),
    // As on AWS: a message comes back only after an attempt's claim has expired.
    visibilityTimeoutMs: (PURCHASE_CLAIM_SECONDS + 30) * 1000,
  });
  const sweeping = { ...ctx, purchaseQueue: queue };
  const sweepScoped = invocationScoped(createPurchaseSweepHandler(() => sweeping));
  const sweep = () =>
    sweepScoped({}, localLambdaContext('local-purchase-sweep', PROCESSOR_TIMEOUT_MS)) as Promise<SweepResult>;
  const logger = new Logger();
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
