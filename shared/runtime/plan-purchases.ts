import { bundledCatalog } from '../app/bundled-catalog';
import {
  idempotencyRepository,
  membershipRepository,
  orgRepository,
  planRepository,
  purchaseRepository,
  userRepository,
} from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { awsPurchaseQueue } from './purchasing';

const repositories = awsFunctionContext({
  orgs: orgRepository,
  memberships: membershipRepository,
  users: userRepository,
  plans: planRepository,
  purchases: purchaseRepository,
  idempotencyRecords: idempotencyRepository,
});

/**
 * The plan-purchases function on AWS: its repositories on the service's table, the SQS purchase
 * queue and the bundled catalog, built on the first invocation.
 */
export const awsPlanPurchasesContext = onFirstUse(() => ({
  ...repositories(),
  purchaseQueue: awsPurchaseQueue(process.env),
  catalog: bundledCatalog,
}));
