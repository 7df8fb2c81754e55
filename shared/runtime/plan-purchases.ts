import type { PlanComputation } from '../app/ports';
import { purchasingCatalog } from '../app/stored-catalog';
import {
  catalogRepository,
  idempotencyRepository,
  membershipRepository,
  orgRepository,
  planRepository,
  purchaseRepository,
  userRepository,
} from '../store/store';
import { createUsageStateReader } from '../store/usage-states';
import { createFunctionContext } from './app-context';
import { createAwsTable, readAwsConfig } from './aws';
import { onFirstUse } from './function-context';
import { lambdaPlanComputation } from './lambda-plan-computation';
import { awsPurchaseQueue } from './purchasing';

const repositories = {
  orgs: orgRepository,
  memberships: membershipRepository,
  users: userRepository,
  plans: planRepository,
  purchases: purchaseRepository,
  idempotencyRecords: idempotencyRepository,
  catalog: catalogRepository,
};

/**
 * The plan-purchases function on AWS: its repositories on the service's table, the SQS purchase
 * queue, the stored catalog (stored-catalog.ts) and the plan-computation function (which names an outdated plan's
 * successor; its client is made when a refusal first needs it), built on the first invocation.
 */
export const awsPlanPurchasesContext = onFirstUse(() => {
  const table = createAwsTable(readAwsConfig(process.env));
  const base = createFunctionContext(table, repositories);
  return {
    ...base,
    // The plan-input version (a plan computed before the last change is outdated): that read alone.
    repos: { ...base.repos, usage: createUsageStateReader(table) },
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
