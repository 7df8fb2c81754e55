import {
  AWS_PRICE_LIST_ORIGIN,
  AZURE_RETAIL_PRICES_URL,
  httpPriceListFiles,
  LIVE_DEFAULT_REGIONS,
} from '../cloud/prices/price-list-files';
import { catalogRepository, orgRepository, usageRepository } from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';

const repositories = awsFunctionContext({
  catalog: catalogRepository,
  orgs: orgRepository,
  usage: usageRepository,
});

/**
 * The catalog refresh on AWS (docs/catalog.md, Deployed refresh): the catalog, org and usage
 * repositories on the service's table, and the providers' public endpoints (no credentials),
 * built on the first invocation.
 *
 * - `TABLE_NAME`, `AWS_REGION`: the service's table.
 * - `CATALOG_REFRESH_REGIONS`: the regions to read, comma-separated (context
 *   `catalogRefreshRegions`); unset: the bundled catalog's regions.
 */
export const awsCatalogRefreshDependencies = onFirstUse(() => ({
  ctx: repositories(),
  priceLists: httpPriceListFiles({ aws: AWS_PRICE_LIST_ORIGIN, azure: AZURE_RETAIL_PRICES_URL }),
  regions: refreshRegions(process.env.CATALOG_REFRESH_REGIONS),
}));

/** The regions a comma-separated list names; none: the bundled catalog's. */
export function refreshRegions(list: string | undefined): readonly string[] {
  const regions = (list ?? '')
    .split(',')
    .map((region) => region.trim())
    .filter(Boolean);
  return regions.length > 0 ? regions : LIVE_DEFAULT_REGIONS;
}
