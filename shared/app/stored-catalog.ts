import type { Catalog } from '../domain/catalog/catalog';
import type { RegionPriceList } from '../domain/catalog/price-list';
import { type Provider, SPEND_ACROSS_REGIONS } from '../domain/engine/shapes/model';
import type { CatalogStore } from './ports/catalog';

/** The catalog version of a catalog with no stored price list: the bundled table alone. */
export const BUNDLED_CATALOG_VERSION = 'bundled';

export interface PricedCatalog {
  readonly catalog: Catalog;
  /** The stored version it was built from (`catalog_version` of the plans priced with it). */
  readonly version: string;
}

/**
 * Each stored region's price list, by where it is stored: a stored list never changes, so a
 * process keeps what it loaded for as long as it lives and loads a region on its first use only.
 */
const loadedLists = new Map<string, RegionPriceList | undefined>();

/** The last catalogs assembled, by version and regions: a warm function plans org after org. */
const assembled = new Map<string, Catalog>();
const ASSEMBLED_KEPT = 4;

/** Where usage or a commitment is: what a catalog must price. */
export interface CatalogPlace {
  readonly provider: Provider;
  readonly region: string;
}

/**
 * The catalog that prices usage in `places` (docs/catalog.md, Stored catalog): the bundled table,
 * with the current version's price lists of those regions over it. Reads the `current` item on
 * every call (one item), so a refresh is seen at once; loads only the regions asked for. The
 * catalog module is imported on first use (bundled-catalog.ts explains why).
 */
export async function catalogFor(
  store: CatalogStore,
  places: Iterable<CatalogPlace>,
): Promise<PricedCatalog> {
  const wanted = new Set([...places].map((place) => `${place.provider}|${place.region}`));
  const current = await store.current();
  const stored = (current?.regions ?? []).filter((r) => wanted.has(`${r.provider}|${r.region}`));
  forgetOtherVersions(current?.regions ?? []);
  return catalogOf(store, current?.version ?? BUNDLED_CATALOG_VERSION, stored);
}

/** Lists a refresh replaced are never asked for again: let them go. */
function forgetOtherVersions(current: readonly { readonly storedIn: string }[]): void {
  const kept = new Set(current.map((r) => r.storedIn));
  for (const key of loadedLists.keys())
    if (!kept.has(key.slice(0, key.indexOf('|')))) loadedLists.delete(key);
}

async function catalogOf(
  store: CatalogStore,
  version: string,
  regions: readonly { readonly provider: Provider; readonly region: string; readonly storedIn: string }[],
): Promise<PricedCatalog> {
  const key = [version, ...regions.map((r) => `${r.provider}|${r.region}`).sort()].join(',');
  const known = assembled.get(key);
  if (known) return { catalog: known, version };
  const lists: RegionPriceList[] = [];
  for (const region of regions) {
    const listKey = `${region.storedIn}|${region.provider}|${region.region}`;
    if (!loadedLists.has(listKey)) {
      loadedLists.set(listKey, await store.loadRegion(region.storedIn, region.provider, region.region));
    }
    const list = loadedLists.get(listKey);
    if (list) lists.push(list);
  }
  const { assembleCatalog, BUNDLED_CATALOG_DATA } = await import('../domain/catalog/catalog');
  const catalog = assembleCatalog(BUNDLED_CATALOG_DATA as Parameters<typeof assembleCatalog>[0], lists);
  assembled.set(key, catalog);
  if (assembled.size > ASSEMBLED_KEPT) assembled.delete(assembled.keys().next().value as string);
  return { catalog, version };
}

/**
 * The catalog buying reads (ProcessorContext and ApplyContext `catalog`): the bundled table with
 * the current version's lists of the regions the purchases handled are in (each record's and plan
 * line's region, which is its offer's), loaded and kept as `catalogFor`'s. A savings plan whose
 * rates span regions names no region of its own (SPEND_ACROSS_REGIONS): it takes every stored
 * region of its provider, where the rates of the plan it was priced with were.
 */
export function purchasingCatalog(store: CatalogStore): (places: Iterable<CatalogPlace>) => Promise<Catalog> {
  return async (places) => {
    const wanted = [...places];
    const across = new Set(
      wanted.filter((place) => place.region === SPEND_ACROSS_REGIONS).map((place) => place.provider),
    );
    if (across.size === 0) return (await catalogFor(store, wanted)).catalog;
    const current = await store.current();
    const everyRegion = (current?.regions ?? []).filter((region) => across.has(region.provider));
    return (await catalogFor(store, [...wanted, ...everyRegion])).catalog;
  };
}

/**
 * On-demand prices of the regions loaded so far, each region priced by a catalog of that region
 * alone (the bundled table with that region's stored list over it: a region's prices depend on its
 * own list only). What a usage import loads (docs/catalog.md, Stored catalog): the regions its
 * rows name that carry no on-demand rate, as they come, instead of every stored region.
 */
export function regionalPrices(store: CatalogStore): Pick<Catalog, 'ondemandPrice'> & {
  /** Loads the catalog of every place (`provider|region`) not loaded yet. */
  load(places: Iterable<string>): Promise<void>;
} {
  const catalogs = new Map<string, Catalog>();
  return {
    async load(places) {
      for (const place of places) {
        if (catalogs.has(place)) continue;
        const [provider, region] = place.split('|') as [Provider, string];
        catalogs.set(place, (await catalogFor(store, [{ provider, region }])).catalog);
      }
    },
    ondemandPrice(instance) {
      const catalog = catalogs.get(`${instance.provider}|${instance.region}`);
      if (!catalog) throw new Error(`the catalog of ${instance.provider} ${instance.region} was not loaded`);
      return catalog.ondemandPrice(instance);
    },
  };
}
