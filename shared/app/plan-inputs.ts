import { withComputePrices } from '../domain/catalog/compute-prices';
import type {
  CommitmentSharing,
  ExistingCommitment,
  Offer,
  Provider,
  UsageStream,
  UsageWindow,
} from '../domain/engine';
import { NotFoundError } from '../domain/errors';
import { upfrontBudget } from '../domain/purchases/guard-rails';
import { ownedCommitmentsAt, ownedCommitmentsOf } from './owned-commitments';
import type { CommitmentRepository, ContextWith, PurchaseRepository, UsageRepository } from './ports';
import { catalogFor } from './stored-catalog';

/**
 * What plan inputs are read from: of the usage, the commitments and the purchases only these
 * reads, so a function that only reads them (plan-coverage) builds the reads alone
 * (shared/store/usage-series-reads.ts, commitment-reads.ts, purchase-reads.ts), not the
 * repositories with their writes.
 */
export type PlanInputsContext = ContextWith<'catalog' | 'orgs'> & {
  readonly repos: {
    readonly usage: Pick<UsageRepository, 'loadUsage'>;
    readonly commitments: Pick<CommitmentRepository, 'listCommitments'>;
    readonly purchases: Pick<PurchaseRepository, 'listByOrg'>;
  };
};

export interface PlanInputs {
  readonly streams: readonly UsageStream[];
  readonly commitments: readonly ExistingCommitment[];
  readonly offers: readonly Offer[];
  /** The org's sharing scope. */
  readonly sharing: CommitmentSharing;
  /** The org's renewal horizon (docs/plan-engine.md, Time is the plan's). */
  readonly renewalHorizonDays: number;
  /** What one plan may pay upfront under the org's cap now; null: no cap (docs/plan-engine.md, The upfront cap). */
  readonly upfrontBudget: number | null;
  /** The catalog version the offers and prices came from (docs/catalog.md, Versions). */
  readonly catalogVersion: string;
}

/**
 * What the engine plans from, for one org and provider over a window: the stored usage, the
 * commitments the org owns or has ordered, the catalog's offers, the org's sharing scope and renewal horizon. `withUsage` false
 * skips the usage read (a provider without stored usage); `orderedBefore` counts only what was
 * owned then (a stored plan's time: ownedCommitmentsAt). Licensed Azure VMs get their compute
 * price from the catalog: what Azure commitments cover of them.
 */
export async function loadPlanInputs(
  ctx: PlanInputsContext,
  orgId: string,
  provider: Provider,
  window: UsageWindow,
  withUsage = true,
  orderedBefore?: string,
): Promise<PlanInputs> {
  const [streams, stored, records, org] = await Promise.all([
    withUsage ? ctx.repos.usage.loadUsage(orgId, provider, window) : [],
    ctx.repos.commitments.listCommitments(orgId, provider),
    ctx.repos.purchases.listByOrg(orgId),
    ctx.repos.orgs.get(orgId),
  ]);
  if (!org) throw new NotFoundError(`Organization ${orgId} not found`);
  // The regions the org uses, owns or has ordered commitments in: the only ones whose prices it needs.
  const places = [...streams, ...stored, ...records].map(({ region }) => ({ provider, region }));
  const { catalog, version } = await catalogFor(ctx.repos.catalog, places);
  // A stored plan's inputs again: what was ordered after it (its own purchases among them), and
  // the commitments stored of it since, were not owned then.
  const commitments =
    orderedBefore === undefined
      ? ownedCommitmentsOf(stored, records, provider, catalog)
      : ownedCommitmentsAt(stored, records, provider, catalog, orderedBefore);
  return {
    streams: withComputePrices(streams, catalog),
    commitments,
    offers: catalog.offers(provider),
    sharing: org.commitmentSharing,
    renewalHorizonDays: org.renewalHorizonDays,
    upfrontBudget: upfrontBudget(org.maxUpfrontCost, records, ctx.clock.now()),
    catalogVersion: version,
  };
}
