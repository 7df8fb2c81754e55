import type { Catalog } from '../domain/catalog/catalog';
import type { ContextWith, PlanComputation, UsageRepository } from './ports';
import type { PurchaseQueue, PurchaseQueueSendError } from './ports/purchase-queue';
import type { CatalogPlace } from './stored-catalog';

/** The repositories applying and purchasing use. */
export type ApplyRepository = 'memberships' | 'orgs' | 'plans' | 'purchases';

/**
 * What applying a plan (#8) and purchasing one for a user (#13) run with (plan-application.ts).
 * Of the usage, only the version of the plan inputs (a plan computed before it is outdated): a
 * function applying plans reads that alone (shared/store/usage-states.ts), not the usage repository.
 */
export interface ApplyContext extends ContextWith<ApplyRepository> {
  readonly repos: ContextWith<ApplyRepository>['repos'] & {
    readonly usage: Pick<UsageRepository, 'usageState'>;
  };
  readonly purchaseQueue: PurchaseQueue;
  /** The catalog of the regions of the plan lines applied (stored-catalog.ts, purchasingCatalog). */
  readonly catalog: (places: Iterable<CatalogPlace>) => Promise<Catalog>;
  /** Told about messages the queue did not take (the sweep sends them again). */
  readonly onUnsentPurchases?: (error: PurchaseQueueSendError) => void;
  /** Computes the successor of an outdated plan, to name it in the refusal. */
  readonly planComputation?: PlanComputation;
}
