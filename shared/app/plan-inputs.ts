import { withComputePrices } from '../domain/catalog/compute-prices';
import type { ExistingCommitment, Offer, Provider, UsageStream, UsageWindow } from '../domain/engine';
import { bundledCatalog } from './bundled-catalog';
import type { AppContext } from './ports';

export interface PlanInputs {
  readonly streams: readonly UsageStream[];
  readonly commitments: readonly ExistingCommitment[];
  readonly offers: readonly Offer[];
}

/**
 * What the engine plans from, for one org and provider over a window: the stored usage, the
 * commitments the org owns and the catalog's offers. `withUsage` false skips the usage read
 * (a provider without stored usage). Licensed Azure VMs get their compute price from the catalog:
 * what Azure commitments cover of them.
 */
export async function loadPlanInputs(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  window: UsageWindow,
  withUsage = true,
): Promise<PlanInputs> {
  const [streams, commitments] = await Promise.all([
    withUsage ? ctx.repos.usage.loadUsage(orgId, provider, window) : [],
    ctx.repos.commitments.listCommitments(orgId, provider),
  ]);
  const catalog = await bundledCatalog();
  return { streams: withComputePrices(streams, catalog), commitments, offers: catalog.offers(provider) };
}
