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
import type { ContextWith } from './ports';
import { catalogFor } from './stored-catalog';

export interface PlanInputs {
  readonly streams: readonly UsageStream[];
  readonly commitments: readonly ExistingCommitment[];
  readonly offers: readonly Offer[];
  /** The org's sharing scope. */
  readonly sharing: CommitmentSharing;
  /** The org's renewal horizon (docs/plan-engine.md, Time is the plan's). */
  readonly renewalHorizonDays: number;
  /** The catalog version the offers and prices came from (docs/catalog.md, Versions). */
  readonly catalogVersion: string;
}

/**
 * What the engine plans from, for one org and provider over a window: the stored usage, the
 * commitments the org owns, the catalog's offers, the org's sharing scope and renewal horizon. `withUsage` false
 * skips the usage read (a provider without stored usage). Licensed Azure VMs get their compute
 * price from the catalog: what Azure commitments cover of them.
 */
export async function loadPlanInputs(
  ctx: ContextWith<'catalog' | 'commitments' | 'orgs' | 'usage'>,
  orgId: string,
  provider: Provider,
  window: UsageWindow,
  withUsage = true,
): Promise<PlanInputs> {
  const [streams, commitments, org] = await Promise.all([
    withUsage ? ctx.repos.usage.loadUsage(orgId, provider, window) : [],
    ctx.repos.commitments.listCommitments(orgId, provider),
    ctx.repos.orgs.get(orgId),
  ]);
  if (!org) throw new NotFoundError(`Organization ${orgId} not found`);
  // The regions the org uses or owns commitments in: the only ones whose prices it needs.
  const places = [...streams, ...commitments].map(({ region }) => ({ provider, region }));
  const { catalog, version } = await catalogFor(ctx.repos.catalog, places);
  return {
    streams: withComputePrices(streams, catalog),
    commitments,
    offers: catalog.offers(provider),
    sharing: org.commitmentSharing,
    renewalHorizonDays: org.renewalHorizonDays,
    catalogVersion: version,
  };
}
