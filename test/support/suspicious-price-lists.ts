import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRICE_FIXTURES_DIR } from './price-list-fixtures';

export interface PriceListCopy {
  readonly dir: string;
  remove(): Promise<void>;
}

/**
 * A copy of the recorded price lists (test/fixtures/prices/) in which every on-demand price of
 * one AWS region's EC2 offer file is divided by `divisor`: the "prices fell by more than half"
 * a refresh must not make current (docs/catalog.md, Refresh).
 */
export async function priceListsWithOnDemandDivided(region: string, divisor: number): Promise<PriceListCopy> {
  const dir = await mkdtemp(join(tmpdir(), 'suspicious-prices-'));
  await cp(PRICE_FIXTURES_DIR, dir, { recursive: true });
  const csv = join(dir, `offers/v1.0/aws/AmazonEC2/20241118210538/${region}/index.csv`);
  const text = await readFile(csv, 'utf8');
  await writeFile(
    csv,
    text.replace(
      /"OnDemand",(.*?),"Hrs","(\d+\.\d+)"/g,
      (_all, middle, price) => `"OnDemand",${middle},"Hrs","${Number(price) / divisor}"`,
    ),
  );
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
