import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { ContextWith, PurchaseQueue } from '../../shared/app/ports';
import { type SweepResult, sweepPurchases } from '../../shared/app/purchase-sweep';

/** What the sweep runs with: the repositories it reads and writes, and the purchase queue. */
export interface PurchaseSweepContext extends ContextWith<'plans' | 'purchases'> {
  readonly purchaseQueue: PurchaseQueue;
}

/**
 * The purchase sweep (docs/purchases.md), run on a schedule: sends again the message of every purchase
 * that should be moving and is not (its message was lost, or dropped after its last receive).
 */
export function createPurchaseSweepHandler(appContext: () => PurchaseSweepContext) {
  const logger = new Logger();

  return middy(async (): Promise<SweepResult> => {
    const result = await sweepPurchases(appContext());
    // A sweep with nothing to send again is the usual case, every few seconds locally and every
    // few minutes on AWS: it is logged only at DEBUG (docs/purchases.md).
    const idle = result.resent === 0 && result.unsent === 0;
    (idle ? logger.debug : logger.info).call(logger, 'purchase sweep', { ...result });
    return result;
  }).use(injectLambdaContext(logger, { resetKeys: true }));
}
