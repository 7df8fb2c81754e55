import type { PlanComputation } from '../app/ports';
import {
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
import { lambdaPurchaseTerms } from './lambda-purchase-terms';
import { awsPurchaseQueue } from './purchasing';

const repositories = {
  orgs: orgRepository,
  memberships: membershipRepository,
  users: userRepository,
  plans: planRepository,
  purchases: purchaseRepository,
  idempotencyRecords: idempotencyRepository,
};

/**
 * The plan-purchases function on AWS: its repositories on the service's table, the SQS purchase
 * queue and the plan-computation function, which holds the catalog: it answers the terms the
 * purchase records are priced with (lambda-purchase-terms.ts) and names an outdated plan's
 * successor. Built on the first invocation; the Lambda client with the first apply.
 */
export const awsPlanPurchasesContext = onFirstUse(() => {
  const table = createAwsTable(readAwsConfig(process.env));
  const base = createFunctionContext(table, repositories);
  return {
    ...base,
    // The plan-input version (a plan computed before the last change is outdated): that read alone.
    repos: { ...base.repos, usage: createUsageStateReader(table) },
    purchaseQueue: awsPurchaseQueue(process.env),
    catalog: lambdaPurchaseTerms(process.env),
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
