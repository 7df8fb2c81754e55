import { planRepository, purchaseRepository } from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { awsPurchaseQueue } from './purchasing';

const repositories = awsFunctionContext({ purchases: purchaseRepository, plans: planRepository });

/**
 * The purchase sweep on AWS: its repositories on the service's table and the SQS purchase queue,
 * built on the first invocation.
 */
export const awsPurchaseSweepContext = onFirstUse(() => ({
  ...repositories(),
  purchaseQueue: awsPurchaseQueue(process.env),
}));
