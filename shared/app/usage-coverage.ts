import type { Provider, UsageWindow } from '../domain/engine/shapes/model';
import { lookbackWindow } from '../domain/plans/plan-set';
import { type UsageWithoutOffer, usageWithoutOffer } from '../domain/plans/usage-without-offer';
import { requireOrg } from './import-files';
import { loadPlanInputs } from './plan-inputs';
import type { AppContext } from './ports';

/** One provider's usage over the plans' window, and what of it no offer covers. */
export interface ProviderCoverage {
  readonly provider: Provider;
  /** The plans' lookback window (the 720 hours ending with the last stored hour). */
  readonly window: UsageWindow;
  readonly resources: number;
  readonly withoutOffer: readonly UsageWithoutOffer[];
}

/**
 * What of an org's usage the plans cannot cover (`admin coverage`, docs/plans-api.md): per
 * provider with usage (or the one asked for), over the window its plans are computed from, the
 * resources whose instance type no offer of the catalog covers in their region, summed by
 * description with their hours and on-demand cost. A plan that buys nothing says why here.
 */
export async function usageCoverage(
  ctx: AppContext,
  orgId: string,
  provider?: Provider,
): Promise<ProviderCoverage[]> {
  await requireOrg(ctx, orgId);
  const providers = provider ? [provider] : await ctx.repos.usage.listProvidersWithUsage(orgId);
  const coverage: ProviderCoverage[] = [];
  for (const each of providers) {
    const state = await ctx.repos.usage.usageState(orgId, each);
    const window = lookbackWindow(state?.lastHour ?? null, ctx.clock.now());
    const inputs = await loadPlanInputs(ctx, orgId, each, window);
    coverage.push({
      provider: each,
      window,
      resources: inputs.streams.length,
      withoutOffer: usageWithoutOffer(inputs.streams, inputs.offers),
    });
  }
  return coverage;
}
