import { applyPlan, purchasePlanFor } from '../../shared/app/plan-application';
import { getPlan, listPlanPurchases } from '../../shared/app/plan-purchase-reads';
import { planPurchaseOperations } from '../../shared/contract/operations/plan-purchases';
import { commitmentPlanView, purchasePlanView } from '../../shared/contract/plan-views';
import { purchaseRecordView } from '../../shared/contract/purchases';
import { createGroupHandler } from '../../shared/http/group-handler';
import { idempotency } from '../../shared/http/idempotency';
import { withHeaders } from '../../shared/http/operation';
import { paginate, paginationHeaderName } from '../../shared/http/pagination';
import { jsonBodies } from '../../shared/http/request-bodies';
import { functionContext } from '../../shared/runtime/current';
import { applyContext } from '../../shared/runtime/purchasing';
import {
  idempotencyRepository,
  membershipRepository,
  orgRepository,
  planRepository,
  purchaseRepository,
  usageRepository,
  userRepository,
} from '../../shared/store/store';

/** The repositories this function's use cases read and write; it bundles no other. */
const appContext = functionContext({
  orgs: orgRepository,
  memberships: membershipRepository,
  users: userRepository,
  plans: planRepository,
  purchases: purchaseRepository,
  // The plan-input version: a plan computed before the last change is outdated.
  usage: usageRepository,
  idempotencyRecords: idempotencyRepository,
});
/** Applying a plan (#8), purchasing one for a user (#13), and reading what that did. */
export const handler = createGroupHandler(
  planPurchaseOperations,
  {
    applyCommitmentPlan: async ({ principal, pathParams }) =>
      commitmentPlanView(
        await applyPlan(applyContext(appContext()), principal, pathParams.org_id, pathParams.plan_id),
      ),

    purchasePlan: async ({ principal, pathParams, body }) =>
      purchasePlanView(
        await purchasePlanFor(
          applyContext(appContext()),
          principal,
          pathParams.org_id,
          pathParams.plan_id,
          body.email,
        ),
      ),

    getCommitmentPlan: async ({ principal, pathParams }) =>
      commitmentPlanView(await getPlan(appContext(), principal, pathParams.org_id, pathParams.plan_id)),

    listPlanPurchases: async ({ principal, pathParams, query }) => {
      const records = await listPlanPurchases(appContext(), principal, pathParams.org_id, pathParams.plan_id);
      const page = paginate(records, { page: query.page, pageSize: query.page_size });
      return withHeaders(page.items.map(purchaseRecordView), { [paginationHeaderName]: page.header });
    },
  },
  {
    idempotency: idempotency({ records: () => appContext().repos.idempotencyRecords }),
    bodies: jsonBodies,
  },
);
