import { withComputePrices } from '../domain/catalog/compute-prices';
import { type ChartCriterion, filterChartInputs } from '../domain/chart/chart-filter';
import { chartDates } from '../domain/chart/chart-range';
import { cloudProviders } from '../domain/cloud-providers';
import { type ChartPoint, chartSeries, type Provider, type UsageWindow } from '../domain/engine';
import { lookbackWindow } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { loadOrgFor } from './org-access';
import { ownedCommitmentsOf } from './owned-commitments';
import type { PlanInputsContext } from './plan-inputs';
import type { UsageRepository } from './ports';
import { catalogFor } from './stored-catalog';

/** What the chart reads: the plan inputs' reads, and each provider's usage state (its last hour). */
export type ChartContext = PlanInputsContext & {
  readonly repos: { readonly usage: Pick<UsageRepository, 'usageState'> };
};

export interface ChartRequest {
  /** Only this provider's commitments and usage; all providers together when absent. */
  readonly provider?: Provider;
  /** Criteria every charted commitment and usage stream must meet. */
  readonly criteria: readonly ChartCriterion[];
  /** `YYYY-MM-DD`; see `chartDates` for the defaults. */
  readonly startDate?: string;
  readonly endDate?: string;
}

/**
 * Spec #10: the org's commitment portfolio over the days asked for, one point a day up to 92
 * days and a month beyond; points after today are projections. Each provider's usage is observed
 * over its own lookback, the 720 hours ending with its latest stored usage (a provider whose data
 * lags is projected after its last hour, not read as idle), and projected as each resource's
 * average hour elsewhere (docs/plan-engine.md, The chart).
 */
export async function commitmentsChart(
  ctx: ChartContext,
  principal: Principal,
  orgId: string,
  request: ChartRequest,
): Promise<ChartPoint[]> {
  await loadOrgFor(ctx, principal, orgId, 'read');
  const now = ctx.clock.now();
  const today = now.toISOString().slice(0, 10);
  const { startDate, endDate } = chartDates(request, today);
  const providers: readonly Provider[] = request.provider ? [request.provider] : cloudProviders;

  const states = await Promise.all(providers.map((provider) => ctx.repos.usage.usageState(orgId, provider)));
  const windows: Partial<Record<Provider, UsageWindow>> = {};
  providers.forEach((provider, index) => {
    const lastHour = states[index]?.lastHour;
    if (lastHour) windows[provider] = lookbackWindow(lastHour, now);
  });
  // Providers without usage chart their commitments over the lookback ending now.
  const window = lookbackWindow(null, now);
  const [usage, stored, records, org] = await Promise.all([
    Promise.all(
      providers.map((provider) => {
        const own = windows[provider];
        return own ? ctx.repos.usage.loadUsage(orgId, provider, own) : [];
      }),
    ),
    ctx.repos.commitments.listCommitments(orgId, request.provider),
    ctx.repos.purchases.listByOrg(orgId),
    ctx.repos.orgs.get(orgId),
  ]);
  const places = [...usage.flat(), ...stored, ...records].map(({ provider, region }) => ({
    provider,
    region,
  }));
  const { catalog } = await catalogFor(ctx.repos.catalog, places);
  const commitments = ownedCommitmentsOf(stored, records, request.provider, catalog);
  const offers = catalog.offers(request.provider);
  const streams = withComputePrices(usage.flat(), catalog);
  const charted = filterChartInputs(request.criteria, streams, commitments, offers);
  // Commitments cover the usage they are shared with, as in the org's plans.
  const sharing = org?.commitmentSharing;
  return chartSeries({ window, windows, ...charted, offers, sharing, startDate, endDate, today });
}
