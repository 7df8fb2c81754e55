/**
 * Catalog memory per function (`npm run bench:catalog-memory`): the heap a function holds once it
 * loaded the stored catalog (docs/catalog.md, Stored catalog) of one region, and of every stored
 * region. A refresh's price lists (synthetic-price-lists.ts: `--regions N --families M`, default
 * 20 x 40) are stored in dynalite through the catalog store as the refresh writes them; then, in a
 * fresh Node process per case (so that one case's caches do not count in the other), the catalog is
 * loaded through shared/app/stored-catalog.ts as the functions load it, and the heap after a full
 * GC is compared with the heap before. Prints one JSON line with the figures.
 */
import { execFileSync } from 'node:child_process';
import { catalogFor } from '../../shared/app/stored-catalog';
import { summarizeRegion } from '../../shared/domain/catalog/refresh-checks';
import { startTestTable } from '../support/dynalite';
import { syntheticPriceLists } from './synthetic-price-lists';

const MB = 2 ** 20;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const regions = option('regions', 20);
const families = option('families', 40);
const gc = (globalThis as { gc?: () => void }).gc;

/** One case, in this process: store the lists, then load the catalog and measure the heap it holds. */
async function measure(load: 'one-region' | 'every-region'): Promise<Record<string, number>> {
  if (!gc) throw new Error('run with --expose-gc (npm run bench:catalog-memory)');
  const table = await startTestTable();
  const lists = syntheticPriceLists(regions, families);
  const version = 'bench-catalog';
  for (const list of lists) await table.store.catalog.putRegion(version, list);
  await table.store.catalog.setCurrent({
    version,
    regions: lists.map((list) => ({ ...summarizeRegion(list), storedIn: version })),
  });
  lists.length = 0;
  const places =
    load === 'one-region'
      ? [{ provider: 'aws' as const, region: 'us-east-1' }]
      : ((await table.store.catalog.current())?.regions ?? []);
  gc();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const { catalog } = await catalogFor(table.store.catalog, places);
  const loadMs = performance.now() - started;
  gc();
  const after = process.memoryUsage().heapUsed;
  const offers = catalog.offers('aws').length;
  await table.close();
  return { heap_mb: Number(((after - before) / MB).toFixed(1)), offers, load_ms: Math.round(loadMs) };
}

const caseArg = process.argv.indexOf('--case');
if (caseArg >= 0) {
  const figures = await measure(process.argv[caseArg + 1] as 'one-region' | 'every-region');
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} else {
  const run = (load: string) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          ...process.execArgv,
          process.argv[1] as string,
          '--case',
          load,
          '--regions',
          String(regions),
          '--families',
          String(families),
        ],
        { encoding: 'utf8' },
      ),
    );
  const one = run('one-region');
  const every = run('every-region');
  process.stdout.write(`catalog memory, ${regions} regions x ${families} families stored\n`);
  process.stdout.write(
    `  one region (catalogFor):                ${one.heap_mb} MB, ${one.offers} AWS offers\n`,
  );
  process.stdout.write(
    `  every region (catalogFor, all stored):  ${every.heap_mb} MB, ${every.offers} AWS offers\n`,
  );
  process.stdout.write(`${JSON.stringify({ regions, families, one_region: one, every_region: every })}\n`);
}
