import type { OrderCatalog } from '../domain/purchases/purchase-catalog';
import type { ContextWith, PlanComputation, UsageRepository } from './ports';
import type { PurchaseQueue, PurchaseQueueSendError } from './ports/purchase-queue';
import type { CatalogPlace } from './stored-catalog';

/** An offer a plan line buys, and where: the region of the line. */
export interface OfferPlace extends CatalogPlace {
  readonly offerId: string;
}

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
  /**
   * The catalog now, for the offers of the plan lines applied, in their regions: the stored catalog
   * (stored-catalog.ts, purchasingCatalog) or, on AWS, its terms for those offers as the
   * plan-computation function answers them (shared/runtime/lambda-purchase-terms.ts).
   */
  readonly catalog: (offers: Iterable<OfferPlace>) => Promise<OrderCatalog>;
  /** Told about messages the queue did not take (the sweep sends them again). */
  readonly onUnsentPurchases?: (error: PurchaseQueueSendError) => void;
  /** Computes the successor of an outdated plan, to name it in the refusal. */
  readonly planComputation?: PlanComputation;
}
