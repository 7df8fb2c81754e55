import type { Provider } from '../domain/engine/shapes/model';
import { isoHour } from '../domain/usage/local-time';
import { latestPresentHour } from '../domain/usage/usage-state';
import { refreshImportedPlans, requireOrg } from './import-files';
import { type ImportSessionOptions, inImportSessions } from './import-sessions';
import type { AppContext } from './ports';

const HOUR_MS = 3_600_000;

/** What a repair did to one provider's usage. */
export interface UsageRepair {
  readonly orgId: string;
  readonly provider: Provider;
  /** Whether any usage was dropped (false: nothing was stored after `keptUntil`). */
  readonly repaired: boolean;
  /** The last hour kept: the present hour plus the clock skew allowed. */
  readonly keptUntil: string;
  /** The last hour with usage after the repair; null when none is left. */
  readonly lastHour: string | null;
  /** The provider's plan-input version after the repair. */
  readonly usageVersion: number;
}

/**
 * Repairs an org whose stored usage of a provider runs into the future (imported before future
 * rows were refused; docs/import.md, Future-dated rows): drops every stored hour after the present
 * one, in an import session like any import, sets the last stored hour to the last one with usage
 * left, and computes the plans again. The hours such an import zeroed between its real rows and
 * the future ones are not restored: import them again.
 */
export async function repairFutureUsage(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  options: ImportSessionOptions = {},
): Promise<UsageRepair> {
  await requireOrg(ctx, orgId);
  const keptUntil = latestPresentHour(ctx.clock.now());
  const state = await ctx.repos.usage.usageState(orgId, provider);
  const hourOf = (iso: string | null | undefined) => (iso ? Date.parse(iso) / HOUR_MS : null);
  const storedFirst = hourOf(state?.firstHour);
  const storedLast = hourOf(state?.lastHour);
  const unchanged = {
    orgId,
    provider,
    repaired: false,
    keptUntil: isoHour(keptUntil),
    lastHour: state?.lastHour ?? null,
    usageVersion: state?.usageVersion ?? 0,
  };
  if (storedFirst === null || storedLast === null || storedLast <= keptUntil) return unchanged;

  const repair = await inImportSessions(ctx, orgId, [provider], options, async ([session]) => {
    const open = session as NonNullable<typeof session>;
    const future = {
      provider,
      covered: { firstHour: keptUntil + 1, lastHour: storedLast },
      rows: 0,
      series: [],
    };
    await ctx.repos.usage.replaceCoveredHours(orgId, future, open.usageVersion, () => open.keepAlive());
    const lastHour = await ctx.repos.usage.lastHourWithUsage(orgId, provider, storedFirst, keptUntil);
    await open.finish({ kind: 'repair', lastHour });
    return { lastHour: lastHour === null ? null : isoHour(lastHour), usageVersion: open.usageVersion };
  });
  await refreshImportedPlans(ctx, { orgId }, [provider]);
  return { ...unchanged, repaired: true, ...repair };
}
