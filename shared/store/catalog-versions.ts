import type { CatalogStore, CatalogVersion } from '../app/ports/catalog';
import type { RegionPriceList } from '../domain/catalog/price-list';
import { writeInBatches } from './batch-writes';
import { compressedParts, fromCompressedParts } from './compressed-parts';
import { catalogCurrentKey, catalogRegionPartition, catalogRegionPartKey } from './keys';
import { getItem, putItem, queryAll, type TableClient } from './table-client';

/**
 * Refreshed catalogs in the table (docs/data-model.md, Catalog; docs/catalog.md, Stored catalog):
 * each region's price list as gzip-compressed JSON parts under its version, and one `CURRENT`
 * item naming the version every function reads. A version's parts are written before `CURRENT`
 * names it, and never changed after, so a reader sees a whole version or the previous one.
 */
export function createCatalogStore(table: TableClient): CatalogStore {
  return {
    async current() {
      const item = await getItem(table, catalogCurrentKey());
      if (!item) return undefined;
      return { version: item.version as string, regions: item.regions as CatalogVersion['regions'] };
    },
    async putRegion(version, list) {
      const parts = compressedParts(list);
      await writeInBatches(
        table,
        parts.map((bytes, part) => ({
          put: {
            ...catalogRegionPartKey(version, list.provider, list.region, part),
            type: 'catalogRegionPart',
            parts: parts.length,
            bytes,
          },
        })),
      );
    },
    async loadRegion(version, provider, region) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': catalogRegionPartition(version, provider, region) },
        ConsistentRead: true,
      });
      if (items.length === 0) return undefined;
      if (items.length !== items[0]?.parts) {
        throw new Error(
          `catalog ${version} ${provider} ${region}: ${items.length} of ${items[0]?.parts} parts stored`,
        );
      }
      return fromCompressedParts(items.map((item) => item.bytes as Uint8Array)) as RegionPriceList;
    },
    async setCurrent(version) {
      await putItem(table, catalogCurrentKey(), { type: 'catalogCurrent', ...version });
    },
  };
}
