import type { RegionPriceList } from '../domain/catalog/price-list';
import { summarizeRegion, suspiciousRegion } from '../domain/catalog/refresh-checks';
import { cloudProviders } from '../domain/cloud-providers';
import type { Provider } from '../domain/engine/shapes/model';
import type { ContextWith } from './ports';
import type { CatalogVersion, CatalogVersionRegion, PriceListFiles } from './ports/catalog';
import { type PriceListReadOptions, type Progress, readPriceLists } from './price-list-reading';

/** What a refresh did (the admin command prints it; the function logs it). */
export interface CatalogRefreshAnswer {
  /** `refreshed`: a new version is current; `kept`: the last good catalog stays, `reasons` say why. */
  readonly outcome: 'refreshed' | 'kept';
  readonly reasons: readonly string[];
  /** The current version after the refresh (`bundled` when none was ever stored). */
  readonly catalog_version: string;
  readonly origin: string;
  readonly providers: readonly Provider[];
  readonly regions: readonly {
    provider: Provider;
    region: string;
    published: Readonly<Record<string, string>>;
  }[];
  readonly offers: {
    readonly instances: number;
    readonly reservations: number;
    readonly spend_rates: number;
  };
  readonly instance_types: number;
  /** Providers whose prices moved: their orgs' plans were made stale. */
  readonly prices_moved: readonly Provider[];
  /** Plan-input versions raised (one per org and provider with plan inputs): those plans compute again. */
  readonly plan_inputs_raised: number;
}

/**
 * Refreshes the stored catalog from the providers' price lists (docs/catalog.md, Refresh): reads
 * them, checks each region against the current version, stores each region's list under a new
 * version, then points `current` at it; regions not read this time stay where they are stored. A
 * read that fails or a suspicious region stores nothing current: the last good catalog stays,
 * and the answer says why. When a provider's prices moved, every org's plan inputs version for it
 * is raised, so its plans are computed again at the new prices.
 */
export async function refreshCatalog(
  ctx: ContextWith<'catalog' | 'orgs' | 'usage'>,
  files: PriceListFiles,
  options: PriceListReadOptions,
  progress: Progress,
): Promise<CatalogRefreshAnswer> {
  const current = await ctx.repos.catalog.current();
  const base = { origin: files.origin, providers: options.providers };
  let lists: RegionPriceList[];
  try {
    lists = await readPriceLists(files, options, progress);
  } catch (error) {
    return kept(base, current, [`the price lists could not be read: ${(error as Error).message}`]);
  }
  if (lists.length === 0) return kept(base, current, ['the price lists name no region']);

  const reasons: string[] = [];
  for (const list of lists) {
    const stored = current?.regions.find((r) => r.provider === list.provider && r.region === list.region);
    const previous = stored
      ? await ctx.repos.catalog.loadRegion(stored.storedIn, list.provider, list.region)
      : undefined;
    const reason = suspiciousRegion(list, previous);
    if (reason) reasons.push(reason);
  }
  if (reasons.length > 0) return kept(base, current, reasons);

  const version = ctx.clock.now().toISOString();
  const refreshed: CatalogVersionRegion[] = [];
  for (const list of lists) {
    progress(`storing ${list.provider} ${list.region}`);
    await ctx.repos.catalog.putRegion(version, list);
    refreshed.push({ ...summarizeRegion(list), storedIn: version });
  }
  const isRefreshed = (r: CatalogVersionRegion) =>
    refreshed.some((each) => each.provider === r.provider && each.region === r.region);
  const next: CatalogVersion = {
    version,
    regions: [...(current?.regions ?? []).filter((r) => !isRefreshed(r)), ...refreshed],
  };
  await ctx.repos.catalog.setCurrent(next);

  const moved = cloudProviders.filter((provider) => pricesMoved(provider, current, next));
  let raised = 0;
  if (moved.length > 0) {
    const at = ctx.clock.now().toISOString();
    for (const org of await ctx.repos.orgs.list()) {
      for (const provider of moved) {
        if (await ctx.repos.usage.raisePlanInputsVersion(org.id, provider, at)) raised++;
      }
    }
  }
  return {
    outcome: 'refreshed',
    reasons: [],
    catalog_version: version,
    ...base,
    ...figures(lists),
    prices_moved: moved,
    plan_inputs_raised: raised,
  };
}

function pricesMoved(provider: Provider, before: CatalogVersion | undefined, after: CatalogVersion): boolean {
  const digests = (version: CatalogVersion | undefined) =>
    (version?.regions ?? [])
      .filter((r) => r.provider === provider)
      .map((r) => `${r.region}=${r.digest}`)
      .sort()
      .join(',');
  return digests(before) !== digests(after);
}

function figures(lists: readonly RegionPriceList[]) {
  return {
    regions: lists.map((list) => ({
      provider: list.provider,
      region: list.region,
      published: list.published,
    })),
    offers: {
      instances: lists.reduce((sum, list) => sum + list.instances.length, 0),
      reservations: lists.reduce((sum, list) => sum + list.reservations.length, 0),
      spend_rates: lists.reduce((sum, list) => sum + list.spendRates.length, 0),
    },
    instance_types: new Set(
      lists.flatMap((list) => list.instances.map((i) => `${list.provider}|${i.instanceType}`)),
    ).size,
  };
}

function kept(
  base: Pick<CatalogRefreshAnswer, 'origin' | 'providers'>,
  current: CatalogVersion | undefined,
  reasons: readonly string[],
): CatalogRefreshAnswer {
  return {
    outcome: 'kept',
    reasons,
    catalog_version: current?.version ?? 'bundled',
    ...base,
    regions: [],
    offers: { instances: 0, reservations: 0, spend_rates: 0 },
    instance_types: 0,
    prices_moved: [],
    plan_inputs_raised: 0,
  };
}
