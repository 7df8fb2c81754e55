import { type ApplyContext, applyPlan, purchasePlanFor } from '../../shared/app/plan-application';
import { getPlan, listPlanPurchases } from '../../shared/app/plan-purchase-reads';
import type { ContextWith } from '../../shared/app/ports';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { planPurchaseOperations } from '../../shared/contract/operations/plan-purchases';
import { commitmentPlanView, purchasePlanView } from '../../shared/contract/plan-views';
import { purchaseRecordView } from '../../shared/contract/purchases';
import { createGroupHandler } from '../../shared/http/group-handler';
import { idempotency } from '../../shared/http/idempotency';
import { withHeaders } from '../../shared/http/operation';
import { paginate, paginationHeaderName } from '../../shared/http/pagination';
import { jsonBodies } from '../../shared/http/request-bodies';

/** What the plan-purchases function runs with: its repositories, the purchase queue and the catalog. */
export type PlanPurchasesContext = ApplyContext & ContextWith<'idempotencyRecords'>;

/** Applying a plan (#8), purchasing one for a user (#13), and reading what that did. */
export function createPlanPurchasesHandler(
  appContext: () => PlanPurchasesContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    planPurchaseOperations,
    {
      applyCommitmentPlan: async ({ principal, pathParams }) =>
        commitmentPlanView(await applyPlan(appContext(), principal, pathParams.org_id, pathParams.plan_id)),

      purchasePlan: async ({ principal, pathParams, body }) =>
        purchasePlanView(
          await purchasePlanFor(appContext(), principal, pathParams.org_id, pathParams.plan_id, body.email),
        ),

      getCommitmentPlan: async ({ principal, pathParams }) =>
        commitmentPlanView(await getPlan(appContext(), principal, pathParams.org_id, pathParams.plan_id)),

      listPlanPurchases: async ({ principal, pathParams, query }) => {
        const records = await listPlanPurchases(
          appContext(),
          principal,
          pathParams.org_id,
          pathParams.plan_id,
        );
        const page = paginate(records, { page: query.page, pageSize: query.page_size });
        return withHeaders(page.items.map(purchaseRecordView), { [paginationHeaderName]: page.header });
      },
    },
    {
      idempotency: idempotency({ records: () => appContext().repos.idempotencyRecords }),
      bodies: jsonBodies,
      requestThrottle,
    },
  );
}
