/**
 * Which stored catalog regions a path reads (docs/catalog.md, Stored catalog): the recorded price
 * lists stored as the current catalog, and the partitions the dynalite table is queried for.
 */
import type { Repositories } from '../../shared/app/ports';
import type { RegionPriceList } from '../../shared/domain/catalog/price-list';
import { summarizeRegion } from '../../shared/domain/catalog/refresh-checks';
import { catalogRegionPartition } from '../../shared/store/keys';
import type { TestTable } from './dynalite';
import { fixturePriceLists } from './price-list-fixtures';

/**
 * Stores the recorded price lists (aws us-east-1 and eu-west-2, azure eastus and westeurope) under
 * `version` and makes it the current catalog.
 */
export async function storeRecordedCatalog(
  repos: Pick<Repositories, 'catalog'>,
  version: string,
): Promise<RegionPriceList[]> {
  const lists = await fixturePriceLists();
  for (const list of lists) await repos.catalog.putRegion(version, list);
  await repos.catalog.setCurrent({
    version,
    regions: lists.map((list) => ({ ...summarizeRegion(list), storedIn: version })),
  });
  return lists;
}

/** Each recorder is a middleware of its own name (a stack refuses a name twice). */
let recorders = 0;

/** Records the partition of every query the table answers from now on. */
export function queriedPartitions(table: TestTable): string[] {
  const partitions: string[] = [];
  table.client.middlewareStack.add(
    (next) => async (args) => {
      const values = (args.input as { ExpressionAttributeValues?: Record<string, unknown> })
        .ExpressionAttributeValues;
      if (typeof values?.[':pk'] === 'string') partitions.push(values[':pk']);
      return next(args);
    },
    { step: 'initialize', name: `queriedPartitions${++recorders}` },
  );
  return partitions;
}

/** The lists (`provider region`) of `version` whose partitions were queried. */
export function catalogReads(
  partitions: readonly string[],
  lists: readonly RegionPriceList[],
  version: string,
): string[] {
  return lists
    .filter((list) => partitions.includes(catalogRegionPartition(version, list.provider, list.region)))
    .map((list) => `${list.provider} ${list.region}`);
}
