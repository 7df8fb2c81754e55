/**
 * Cold-start benchmark (`npm run bench:cold`): bundles every function exactly as the CDK stack
 * does (the service app synthesized with bundling on, through the same ServiceFunction
 * construct: the API's functions, the plan computation, the purchase processor and sweep, and the processor's aws entry
 * that `-c marketplace=aws` deploys instead of the simulated one), and the floor function beside
 * them in the same run; then imports each bundle in a fresh Node process, RUNS times (default 9,
 * interleaved), and prints per function the bundle size and the fastest module-init time beside
 * the floor's, each against the function's bound (`boundOf`), then one JSON line with the figures.
 * Exits 1 when a function is out of its bound.
 *
 * The fastest of the interleaved rounds, not the median: on a shared machine a round is only ever
 * slowed by others' work, never sped up, so the fastest is the least disturbed figure of each
 * bundle (docs/benchmarks.md, Cold start).
 *
 * Two functions must call several AWS services (the AWS verification, the aws processor); each is
 * also set beside a floor of its own SDK clients (test/bench/cold-start/*-clients-floor.ts: the
 * plain floor plus exactly the clients and commands it sends), which shows what our code adds to
 * what those clients cost. Those rows are extra (`client_floors` in the JSON line); the targets
 * are judged against the plain floor.
 *
 * Module init = the time from just before `import()` of the bundle to its resolution, measured
 * inside the fresh process, so Node's own start is left out and only what the function's code
 * does at load counts (what Lambda bills as the Init phase beyond the runtime's own).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { buildApp } from '../../lib/app';
import { ServiceFunction } from '../../lib/constructs/service-function';
import { functionEntry, projectRoot } from '../../lib/project-paths';
import { cdkJsonContext } from '../infra/service-app';

const runs = Number(process.env.RUNS ?? 9);

/** How far a function's bundle may be above the floor's (KB), and its init time over the floor's. */
interface Bound {
  readonly kind: 'api' | 'authorizer' | 'background';
  readonly extraKb: number;
  readonly initRatio: number;
}

/**
 * The functions no request waits for: queue consumers, schedules and their fan-outs. Their cold
 * start delays a background job by a fraction of a second against timeouts of minutes, so their
 * bound only catches a regression; every other function answers (or is waited on by) a request.
 * docs/benchmarks.md, Cold start, says why each bound is what it is.
 */
const backgroundFunctions = new Set([
  'usage-sync',
  'usage-sync-fanout',
  'purchase-sweep',
  'purchase-processor',
  'purchase-processor (marketplace=aws)',
  'catalog-refresh',
]);

function boundOf(name: string): Bound {
  if (name === 'authorizer') return { kind: 'authorizer', extraKb: 60, initRatio: 1.25 };
  if (backgroundFunctions.has(name)) return { kind: 'background', extraKb: 650, initRatio: 2.5 };
  return { kind: 'api', extraKb: 150, initRatio: 1.25 };
}

interface Bundle {
  readonly name: string;
  readonly file: string;
}

/** A floor of one function's own SDK clients: its entry beside the benchmark's, and the function it is for. */
const clientFloors = [
  { name: 'onboarding-aws-verify', entry: 'aws-verify-clients-floor.ts' },
  { name: 'purchase-processor (marketplace=aws)', entry: 'aws-processor-clients-floor.ts' },
] as const;

function synthesizeBundles(outdir: string): { functions: Bundle[]; floor: Bundle; clientFloors: Bundle[] } {
  process.stderr.write('bundling every function as `cdk synth` does...\n');
  const app = new App({ outdir, context: { ...cdkJsonContext(), 'aws:cdk:enable-asset-metadata': true } });
  const { api } = buildApp(app);
  const floorStack = new Stack(app, 'ColdStartFloor');
  const floor = new ServiceFunction(floorStack, 'Floor', {
    entry: join(projectRoot, 'test/bench/cold-start/floor-handler.ts'),
    description: 'Cold-start benchmark floor',
    serviceName: 'cold-start-floor',
    environment: {},
  });
  // The processor of a deployment synthesized with `-c marketplace=aws` has its own entry (the
  // default stack bundles the simulated one): bundled here the same way, so its figures print too.
  const awsProcessor = new ServiceFunction(floorStack, 'AwsProcessor', {
    entry: functionEntry('purchase-processor', 'aws-handler.ts'),
    description: 'Cold-start benchmark: the aws purchase processor',
    serviceName: 'cold-start-aws-processor',
    environment: {},
  });
  const clientFloorFunctions = clientFloors.map(
    ({ name, entry }, index) =>
      [
        name,
        new ServiceFunction(floorStack, `ClientsFloor${index}`, {
          entry: join(projectRoot, 'test/bench/cold-start', entry),
          description: `Cold-start benchmark: the floor of ${name}'s SDK clients`,
          serviceName: `cold-start-clients-floor-${index}`,
          environment: {},
        }),
      ] as const,
  );
  const named: [string, ServiceFunction][] = [
    ['authorizer', api.authorizerFunction],
    ...api.groupFunctions,
    ['plan-computation', api.planComputation],
    ['purchase-processor', api.purchases.processor],
    ['purchase-sweep', api.purchases.sweep],
    ['purchase-processor (marketplace=aws)', awsProcessor],
    ['usage-sync-fanout', api.usageSync.fanout],
    ['usage-sync', api.usageSync.sync],
    ['catalog-refresh', api.catalogRefresh.refresh],
  ];
  app.synth();
  const bundleOf = (name: string, fn: ServiceFunction): Bundle => {
    const assetPath = (fn.function.node.defaultChild as CfnFunction).getMetadata('aws:asset:path');
    if (typeof assetPath !== 'string') throw new Error(`No asset path for ${name}`);
    return { name, file: join(outdir, assetPath, 'index.mjs') };
  };
  return {
    functions: named.map(([name, fn]) => bundleOf(name, fn)),
    floor: bundleOf('floor', floor),
    clientFloors: clientFloorFunctions.map(([name, fn]) => bundleOf(`${name}: its clients' floor`, fn)),
  };
}

/** One module init in a fresh process, in milliseconds. */
function initOnce(file: string): number {
  const script = `const start = performance.now();
    await import(${JSON.stringify(pathToFileURL(file).href)});
    process.stdout.write(String(performance.now() - start));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: 'cold-start',
      POWERTOOLS_SERVICE_NAME: 'cold-start',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  return Number(output);
}

function fastest(values: readonly number[]): number {
  return Math.min(...values);
}

function kilobytes(file: string): number {
  return Math.round((statSync(file).size / 1024) * 10) / 10;
}

const outdir = mkdtempSync(join(tmpdir(), 'cold-start-'));
try {
  const { functions, floor, clientFloors: ownFloors } = synthesizeBundles(outdir);
  const all = [floor, ...functions, ...ownFloors];
  const samples = new Map<string, number[]>(all.map((bundle) => [bundle.name, []]));
  // Interleaved rounds: a slow moment of the machine falls on every function alike.
  for (let round = 1; round <= runs; round += 1) {
    process.stderr.write(`\rinit round ${round}/${runs}`);
    for (const bundle of all) samples.get(bundle.name)?.push(initOnce(bundle.file));
  }
  process.stderr.write('\n');

  const floorKb = kilobytes(floor.file);
  const floorInitMs = fastest(samples.get('floor') ?? []);
  const rows = functions.map((bundle) => {
    const kb = kilobytes(bundle.file);
    const initMs = fastest(samples.get(bundle.name) ?? []);
    const bound = boundOf(bundle.name);
    const limitKb = Math.round((floorKb + bound.extraKb) * 10) / 10;
    const ratio = Math.round((initMs / floorInitMs) * 100) / 100;
    return {
      name: bundle.name,
      kind: bound.kind,
      kb,
      init_ms: Math.round(initMs * 10) / 10,
      ratio,
      limitKb,
      limitRatio: bound.initRatio,
      ok: kb <= limitKb && ratio <= bound.initRatio,
    };
  });

  const line = (cells: readonly (string | number)[]) =>
    cells
      .map((cell, index) =>
        String(cell)
          .padStart(index === 0 ? 0 : 12)
          .padEnd(index === 0 ? 38 : 0),
      )
      .join('');
  console.log(
    `cold start: ${runs} fresh processes per function, fastest module init (Node ${process.version})`,
  );
  console.log(line(['function', 'kind', 'KB', 'limit KB', 'init ms', 'ratio', 'limit', 'bound']));
  console.log(line(['floor', '', floorKb, '', Math.round(floorInitMs * 10) / 10, 1, '', '']));
  for (const row of rows) {
    console.log(
      line([
        row.name,
        row.kind,
        row.kb,
        row.limitKb,
        row.init_ms,
        row.ratio,
        row.limitRatio,
        row.ok ? 'met' : 'MISSED',
      ]),
    );
  }
  const besideOwnFloors = clientFloors.map(({ name }, index) => {
    const own = ownFloors[index] as Bundle;
    const row = rows.find((each) => each.name === name);
    if (!row) throw new Error(`no function named ${name}`);
    const ownKb = kilobytes(own.file);
    const ownInitMs = fastest(samples.get(own.name) ?? []);
    return {
      name,
      floor_kb: ownKb,
      floor_init_ms: Math.round(ownInitMs * 10) / 10,
      over_kb: Math.round((row.kb - ownKb) * 10) / 10,
      ratio: Math.round((fastest(samples.get(name) ?? []) / ownInitMs) * 100) / 100,
    };
  });
  console.log(
    '\nbeside a floor of their own SDK clients (the plain floor plus exactly the clients and commands they send):',
  );
  console.log(line(['function', 'floor KB', 'over KB', 'floor ms', 'ratio']));
  for (const each of besideOwnFloors) {
    console.log(line([each.name, each.floor_kb, each.over_kb, each.floor_init_ms, each.ratio]));
  }
  console.log(
    JSON.stringify({
      functions: rows.map(({ name, kind, kb, init_ms, ratio, limitKb, limitRatio, ok }) => ({
        name,
        kind,
        kb,
        init_ms,
        ratio,
        limit_kb: limitKb,
        limit_ratio: limitRatio,
        met: ok,
      })),
      floor_kb: floorKb,
      floor_init_ms: Math.round(floorInitMs * 10) / 10,
      client_floors: besideOwnFloors,
    }),
  );
  const missed = rows.filter((row) => !row.ok).map((row) => row.name);
  if (missed.length > 0) {
    process.stderr.write(`out of bound: ${missed.join(', ')}\n`);
    process.exitCode = 1;
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
