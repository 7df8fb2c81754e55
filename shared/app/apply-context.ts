import type { Catalog } from '../domain/catalog/catalog';
import type { ContextWith, PlanComputation } from './ports';
import type { PurchaseQueue, PurchaseQueueSendError } from './ports/purchase-queue';

/**
 * What applying a plan and purchasing one for a user (plan-application.ts) run with, apart from
 * the use case so that its decision (plan-application-decision.ts) names it without importing the
 * use case that imports it.
 */

/** The repositories applying and purchasing use. */
export type ApplyRepository = 'memberships' | 'orgs' | 'plans' | 'purchases' | 'usage' | 'users';

export interface ApplyContext extends ContextWith<ApplyRepository> {
  readonly purchaseQueue: PurchaseQueue;
  readonly catalog: () => Promise<Catalog>;
  /** Told about messages the queue did not take (the sweep sends them again). */
  readonly onUnsentPurchases?: (error: PurchaseQueueSendError) => void;
  /** Computes the successor of an outdated plan, to name it in the refusal. */
  readonly planComputation?: PlanComputation;
}
