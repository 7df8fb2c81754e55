import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { type SweepResult, sweepPurchases } from '../../shared/app/purchase-sweep';
import { functionContext } from '../../shared/runtime/current';
import { applyContext } from '../../shared/runtime/purchasing';
import { planRepository, purchaseRepository } from '../../shared/store/store';

/**
 * The purchase sweep (DESIGN §9), run on a schedule: sends again the message of every purchase
 * that should be moving and is not (its message was lost, or dropped after its last receive).
 */
const logger = new Logger();

/** The repositories this function's use cases read and write; it bundles no other. */
const appContext = functionContext({ purchases: purchaseRepository, plans: planRepository });

export const handler = middy(async (): Promise<SweepResult> => {
  const result = await sweepPurchases(applyContext(appContext()));
  logger.info('purchase sweep', { ...result });
  return result;
}).use(injectLambdaContext(logger, { resetKeys: true }));
