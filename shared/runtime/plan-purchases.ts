import { bundledCatalog } from '../app/bundled-catalog';
import type { PlanComputation } from '../app/ports';
import {
  idempotencyRepository,
  membershipRepository,
  orgRepository,
  planRepository,
  purchaseRepository,
  usageRepository,
  userRepository,
} from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { lambdaPlanComputation } from './lambda-plan-computation';
import { awsPurchaseQueue } from './purchasing';

const repositories = awsFunctionContext({
  orgs: orgRepository,
  memberships: membershipRepository,
  users: userRepository,
  plans: planRepository,
  purchases: purchaseRepository,
  // The plan-input version: a plan computed before the last change is outdated.
  usage: usageRepository,
  idempotencyRecords: idempotencyRepository,
});

/**
 * The plan-purchases function on AWS: its repositories on the service's table, the SQS purchase
 * queue, the bundled catalog and the plan-computation function (which names an outdated plan's
 * successor; its client is made when a refusal first needs it), built on the first invocation.
 */
export const awsPlanPurchasesContext = onFirstUse(() => ({
  ...repositories(),
  purchaseQueue: awsPurchaseQueue(process.env),
  catalog: bundledCatalog,
  planComputation: lazyPlanComputation(),
}));

function lazyPlanComputation(): PlanComputation {
  let computation: PlanComputation | undefined;
  return (orgId, provider) => {
    computation ??= lambdaPlanComputation(process.env);
    return computation(orgId, provider);
  };
}
