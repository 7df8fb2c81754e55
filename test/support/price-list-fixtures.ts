import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Progress, readPriceLists } from '../../shared/app/price-list-reading';
import { directoryPriceListFiles } from '../../shared/cloud/prices/price-list-files';
import type { RegionPriceList } from '../../shared/domain/catalog/price-list';
import type { Provider } from '../../shared/domain/engine/shapes/model';

/** The recorded price lists, laid out as the providers serve them (test/fixtures/prices/README.md). */
export const PRICE_FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures', 'prices');

export const quiet: Progress = () => {};

/** Every provider's lists read from the recorded files. */
export async function fixturePriceLists(
  providers: readonly Provider[] = ['aws', 'azure'],
): Promise<RegionPriceList[]> {
  return readPriceLists(directoryPriceListFiles(PRICE_FIXTURES_DIR), { providers }, quiet);
}

export function fixtureList(
  lists: readonly RegionPriceList[],
  provider: Provider,
  region: string,
): RegionPriceList {
  const list = lists.find((entry) => entry.provider === provider && entry.region === region);
  if (!list) throw new Error(`no ${provider} ${region} list`);
  return list;
}

interface SnapshotPrices {
  readonly ondemand: string;
  readonly reserved: Readonly<Record<string, string>>;
}

/** The real x2iedn.32xlarge snapshot excerpt: region -> platform key (`linux`, `mswin`, ...) -> prices. */
export function x2iednSnapshot(): Readonly<Record<string, Readonly<Record<string, SnapshotPrices>>>> {
  return JSON.parse(readFileSync(join(PRICE_FIXTURES_DIR, 'x2iedn-snapshot-excerpt.json'), 'utf8')).pricing;
}

/** The snapshot's platform keys, by the platform names the catalog uses. */
export const SNAPSHOT_PLATFORMS: Readonly<Record<string, string>> = {
  Linux: 'linux',
  Windows: 'mswin',
  RHEL: 'rhel',
  SUSE: 'sles',
  'Linux with SQL Std': 'linuxSQL',
  'Linux with SQL Web': 'linuxSQLWeb',
  'Linux with SQL Ent': 'linuxSQLEnterprise',
};
