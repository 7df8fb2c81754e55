import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { type SweepResult, sweepPurchases } from '../../shared/app/purchase-sweep';
import { appContext } from '../../shared/runtime/current';
import { applyContext } from '../../shared/runtime/purchasing';

/**
 * The purchase sweep (DESIGN §9), run on a schedule: sends again the message of every purchase
 * that should be moving and is not (its message was lost, or dropped after its last receive).
 */
const logger = new Logger();

export const handler = middy(async (): Promise<SweepResult> => {
  const result = await sweepPurchases(applyContext(appContext()));
  logger.info('purchase sweep', { ...result });
  return result;
}).use(injectLambdaContext(logger, { resetKeys: true }));
