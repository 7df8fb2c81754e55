import type { PlanComputation } from '../app/ports';
import { purchasingCatalog } from '../app/stored-catalog';
import {
  catalogRepository,
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
  catalog: catalogRepository,
});

/**
 * The plan-purchases function on AWS: its repositories on the service's table, the SQS purchase
 * queue, the stored catalog (stored-catalog.ts) and the plan-computation function (which names an outdated plan's
 * successor; its client is made when a refusal first needs it), built on the first invocation.
 */
export const awsPlanPurchasesContext = onFirstUse(() => {
  const base = repositories();
  return {
    ...base,
    purchaseQueue: awsPurchaseQueue(process.env),
    catalog: purchasingCatalog(base.repos.catalog),
    planComputation: lazyPlanComputation(),
  };
});

function lazyPlanComputation(): PlanComputation {
  let computation: PlanComputation | undefined;
  return (orgId, provider) => {
    computation ??= lambdaPlanComputation(process.env);
    return computation(orgId, provider);
  };
}
