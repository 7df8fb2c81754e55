import { loadCatalog } from '../domain/catalog/catalog';
import { type ChartCriterion, filterChartInputs } from '../domain/chart/chart-filter';
import { chartDates } from '../domain/chart/chart-range';
import { type ChartPoint, chartSeries, type Provider } from '../domain/engine/index';
import { cloudProviders } from '../domain/orgs';
import { lookbackWindow } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { loadOrgFor } from './org-access';
import type { AppContext } from './ports';

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
 * days and a month beyond; points after today are projections. Usage is observed over one
 * lookback, the 720 hours ending with the latest stored usage of the charted providers, and
 * projected as each resource's average hour elsewhere (docs/plan-engine.md, The chart).
 */
export async function commitmentsChart(
  ctx: AppContext,
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
  const lastHours = states.flatMap((state) => (state?.lastHour ? [state.lastHour] : []));
  const latest =
    lastHours.length > 0 ? lastHours.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b)) : null;
  const window = lookbackWindow(latest, now);
  const [usage, commitments, org] = await Promise.all([
    Promise.all(
      providers.map((provider, index) =>
        states[index]?.lastHour ? ctx.repos.usage.loadUsage(orgId, provider, window) : [],
      ),
    ),
    ctx.repos.commitments.listCommitments(orgId, request.provider),
    ctx.repos.orgs.get(orgId),
  ]);
  const offers = loadCatalog().offers(request.provider);
  const charted = filterChartInputs(request.criteria, usage.flat(), commitments, offers);
  // Commitments cover the usage they are shared with, as in the org's plans.
  const sharing = org?.commitmentSharing;
  return chartSeries({ window, ...charted, offers, sharing, startDate, endDate, today });
}
