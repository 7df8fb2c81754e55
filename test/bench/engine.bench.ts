/**
 * Benchmark of the plan engine (docs/plan-engine.md, "Performance"): `computePlans` with the three
 * default plans on generated AWS fleets of 1,000, 10,000 and 50,000 streams x 720 hours, and the
 * 50,000 spread over 20 accounts, beside a plain pass summing the same usage arrays (the
 * memory-bound floor of anything that reads them). Groups span every account of the org (the
 * default sharing scope), and each case's computations share one residual arena, as the
 * composition root's `engineMemory` is shared by a process's computations.
 * A second column times the engine followed by building every resource match record of its plans
 * (which the engine leaves to whoever stores or serves them), so that cost is in view too.
 *
 * Run with `npm run bench`. Progress goes to stderr; the table, then (as the last line) the JSON
 * figures of the 10,000-stream case go to stdout. Not a test: vitest never collects it.
 * `npm run bench -- --regions 20 --families 40` runs the 10,000-stream case on a fleet spread over
 * that many regions and EC2 families, priced by price lists of that width stored as a refresh
 * stores them (synthetic-price-lists.ts), and reports the catalog's memory and stored size.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { generateCommitments } from '../../local/demo/synthetic-commitments';
import { generateFleet } from '../../local/demo/synthetic-fleet';
import {
  assembleCatalog,
  BUNDLED_CATALOG_DATA,
  type Catalog,
  loadCatalog,
  type ValidCatalogData,
} from '../../shared/domain/catalog/catalog';
import { sizeInstance } from '../../shared/domain/catalog/instance-units';
import { computePlans, type EngineInput, residualArena, type UsageStream } from '../../shared/domain/engine';
import { compressedParts } from '../../shared/store/compressed-parts';
import { syntheticFamilies, syntheticPriceLists, syntheticRegions } from './synthetic-price-lists';

const HOURS = 720;
const WINDOW = { start: '2025-01-01T00:00:00.000Z', hours: HOURS };
const REPORTED_STREAMS = 10_000;

/**
 * Fleet sizes, with warm-up and measured runs (fewer of both where one run takes seconds), and the
 * accounts the streams are spread over (0: as generated, up to 6).
 */
const CASES = [
  { streams: 1_000, accounts: 0, warmups: 5, runs: 15 },
  { streams: 10_000, accounts: 0, warmups: 3, runs: 11 },
  { streams: 50_000, accounts: 0, warmups: 1, runs: 5 },
  { streams: 50_000, accounts: 20, warmups: 1, runs: 5 },
] as const;

interface CaseResult {
  readonly streams: number;
  readonly accounts: number;
  readonly engineMs: number;
  /** The engine, then every resource match record of its plans built (as storing them does). */
  readonly recordsMs: number;
  readonly floorMs: number;
  readonly peakRssMb: number;
}

const collectGarbage: () => void =
  typeof globalThis.gc === 'function' ? (globalThis.gc as () => void) : () => undefined;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Median milliseconds of each of `works` over `runs` rounds, after `warmups` untimed ones. A round
 * times each work once, in turn, collecting garbage before each: the works are measured side by
 * side, so that a change in the machine's speed during the case (other work, other tenants of
 * the host) reaches all of them alike instead of only the one timed at that moment.
 */
function medianMs(warmups: number, runs: number, works: readonly (() => unknown)[]): number[] {
  for (let k = 0; k < warmups; k++) for (const work of works) work();
  const times: number[][] = works.map(() => []);
  for (let k = 0; k < runs; k++) {
    works.forEach((work, w) => {
      collectGarbage();
      const start = performance.now();
      work();
      (times[w] as number[]).push(performance.now() - start);
    });
  }
  return times.map(median);
}

/** The floor: one pass reading every usage value, as the engine must at least do. */
function sumUsage(streams: readonly UsageStream[]): number {
  let total = 0;
  for (const stream of streams) {
    const usage = stream.usage;
    for (let t = 0; t < usage.length; t++) total += usage[t] as number;
  }
  return total;
}

/** The fleet's streams dealt round-robin to `accounts` accounts (0: left as generated). */
function spreadOver(fleet: readonly UsageStream[], accounts: number): UsageStream[] {
  if (accounts === 0) return [...fleet];
  return fleet.map((stream, index) => ({ ...stream, accountId: `${100000000000 + (index % accounts)}` }));
}

/** `--regions N --families M`: the wide catalog's width; absent: the bundled catalog's cases. */
function wideOption(name: string): number | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive integer`);
  return value;
}
const wideRegions = wideOption('regions');
const wideFamilies = wideOption('families');
const wide = wideRegions !== undefined || wideFamilies !== undefined;

/**
 * The generated fleet spread over the wide catalog: stream i in region i mod R, family (i div R)
 * mod F, its size and OS kept (EC2 Linux or Windows), priced by the catalog.
 */
function spreadOverCatalog(
  fleet: readonly UsageStream[],
  catalog: Catalog,
  regions: string[],
  families: string[],
) {
  const sizes = ['large', 'xlarge', '2xlarge', '4xlarge'];
  return fleet.map((stream, index) => {
    const region = regions[index % regions.length] as string;
    const family = families[Math.floor(index / regions.length) % families.length] as string;
    const units = sizeInstance('aws', stream.instanceType)?.units ?? 4;
    const size = sizes[Math.min(3, Math.max(0, Math.round(Math.log2(units / 4))))] as string;
    const instanceType = `${family}.${size}`;
    const operatingSystem = stream.operatingSystem === 'Windows' ? 'Windows' : 'Linux';
    const key = { provider: 'aws', region, instanceType, operatingSystem, tenancy: 'Shared' } as const;
    const ondemandPrice = catalog.ondemandPrice(key);
    if (ondemandPrice === undefined) throw new Error(`${instanceType} is not priced in ${region}`);
    const { deploymentOption: _deployment, ...rest } = stream;
    return {
      ...rest,
      region,
      instanceType,
      operatingSystem,
      tenancy: 'Shared',
      service: 'AmazonEC2',
      ondemandPrice,
    };
  });
}

let wideFigures: Record<string, number> = {};

function wideCatalog(): Catalog {
  const lists = syntheticPriceLists(wideRegions ?? 20, wideFamilies ?? 40);
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const catalog = assembleCatalog(BUNDLED_CATALOG_DATA as ValidCatalogData, lists);
  collectGarbage();
  const heapAfter = process.memoryUsage().heapUsed;
  const storedBytes = lists.map((list) => compressedParts(list).reduce((sum, part) => sum + part.length, 0));
  const jsonBytes = lists.map((list) => JSON.stringify(list).length);
  wideFigures = {
    regions: lists.length,
    families: wideFamilies ?? 40,
    offers: catalog.offers('aws').length,
    priced_instances: catalog.pricedInstances('aws').length,
    catalog_heap_mb: Number(((heapAfter - heapBefore) / 2 ** 20).toFixed(1)),
    stored_kb_per_region: Math.round(storedBytes.reduce((a, b) => a + b, 0) / lists.length / 1024),
    json_kb_per_region: Math.round(jsonBytes.reduce((a, b) => a + b, 0) / lists.length / 1024),
  };
  process.stderr.write(`wide catalog: ${JSON.stringify(wideFigures)}\n`);
  return catalog;
}

function engineInput(streams: number, accounts: number): EngineInput {
  const bundled = loadCatalog();
  const catalog = wide ? wideCatalog() : bundled;
  process.stderr.write(`generating ${streams} streams x ${HOURS} hours...`);
  const started = performance.now();
  const generated = generateFleet({
    seed: 'bench',
    provider: 'aws',
    streams,
    window: WINDOW,
    catalog: bundled,
  });
  const fleet = wide
    ? spreadOverCatalog(
        generated,
        catalog,
        syntheticRegions(wideRegions ?? 20),
        syntheticFamilies(wideFamilies ?? 40),
      )
    : spreadOver(generated, accounts);
  const commitments = generateCommitments({
    seed: 'bench',
    provider: 'aws',
    streams: fleet,
    window: WINDOW,
    catalog,
    count: 5,
  });
  process.stderr.write(` done in ${Math.round(performance.now() - started)} ms\n`);
  return {
    orgId: 'bench-org',
    provider: 'aws',
    window: WINDOW,
    streams: fleet,
    commitments,
    offers: catalog.offers('aws'),
    planSeed: `bench-${streams}`,
    createdAt: '2025-01-31T00:00:00.000Z',
  };
}

function runCase(streams: number, accounts: number, warmups: number, runs: number): CaseResult {
  const input = engineInput(streams, accounts);
  const arena = residualArena();
  process.stderr.write(`timing ${streams} streams: ${warmups} warm-up and ${runs} measured runs...\n`);
  let sink = 0;
  const [floorMs, engineMs, recordsMs] = medianMs(warmups, runs, [
    () => {
      sink += sumUsage(input.streams);
    },
    () => {
      sink += computePlans(input, arena).plans.length;
    },
    () => {
      for (const plan of computePlans(input, arena).plans) {
        for (const { match } of plan.resourceMatches) sink += match.coverage;
      }
    },
  ]) as [number, number, number];
  if (!Number.isFinite(sink)) throw new Error('usage sum is not finite');
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  return {
    streams,
    accounts: new Set(input.streams.map((stream) => stream.accountId)).size,
    engineMs,
    recordsMs,
    floorMs,
    peakRssMb,
  };
}

function formatTable(results: readonly CaseResult[]): string {
  const header = [
    'streams',
    'accounts',
    'hours',
    'engine ms',
    'floor ms',
    'ratio',
    'ms per 1k streams',
    'with match records ms',
    'peak RSS MB',
  ];
  const rows = results.map((result) => [
    String(result.streams),
    String(result.accounts),
    String(HOURS),
    result.engineMs.toFixed(1),
    result.floorMs.toFixed(2),
    (result.engineMs / result.floorMs).toFixed(1),
    ((result.engineMs / result.streams) * 1000).toFixed(1),
    result.recordsMs.toFixed(1),
    result.peakRssMb.toFixed(0),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => cell.padStart(widths[column] as number)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const loadBefore = loadAverage();
const results = (wide ? CASES.filter((c) => c.streams === REPORTED_STREAMS && c.accounts === 0) : CASES).map(
  ({ streams, accounts, warmups, runs }) => runCase(streams, accounts, warmups, runs),
);
const reported = results.find((result) => result.streams === REPORTED_STREAMS) as CaseResult;

console.log(formatTable(results));
console.log(
  `load average (1, 5, 15 min): ${loadBefore} before, ${loadAverage()} after; ` +
    `${typeof globalThis.gc === 'function' ? 'garbage collected between runs' : 'run without --expose-gc'}`,
);
console.log(
  JSON.stringify({
    streams: reported.streams,
    hours: HOURS,
    engine_ms: round(reported.engineMs, 1),
    floor_ms: round(reported.floorMs, 2),
    ratio: round(reported.engineMs / reported.floorMs, 1),
    peak_rss_mb: round(reported.peakRssMb, 0),
    ...wideFigures,
  }),
);
