/**
 * The API benchmark, `npm run bench:api` (docs/benchmarks.md): the local API as `npm start` serves
 * it, on a fresh demo seed, under 20 connections for 10 s on `GET .../line-items?page_size=100`,
 * then on an unknown path (a 404 answered by the same server without storage: the floor).
 * Prints the figures as a table and, as its last line, one JSON object.
 *
 * The server runs in this process (its storage calls are counted on its DynamoDB client); the
 * load comes from autocannon's worker thread, so the client's work stays off the server's event
 * loop (both still share the machine's cores).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import autocannon, { type Result } from 'autocannon';
import type { LocalApi } from '../../local/local-api';

const connections = 20;
const durationSeconds = 10;
/** Requests before measuring, 10 at a time: fills the caches and warms the JIT, as on a warm Lambda. */
const warmUpRequests = 200;
const warmUpConcurrency = 10;
/** How long the storage call count must stay unchanged after a run for its requests to be done. */
const settleIntervalMs = 200;
const lineItemsQuery = 'page_size=100';
const unknownPath = '/v1/no-such-route';
/** The targets on the local runtime (docs/benchmarks.md). */
const targetP99Ms = 50;
const targetStorageCalls = 3;

interface RunFigures {
  readonly route: string;
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
}

async function main(): Promise<void> {
  console.log(`load average at start (/proc/loadavg): ${await loadAverage()}`);
  // Request logs would flood stdout (one JSON line a request) and hide the figures: warnings and
  // errors only, unless the caller chose a level. Set before the server's modules load, as their
  // loggers read it once, when created.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const { startLocalApi } = await import('../../local/local-api');
  const { readLocalConfig } = await import('../../local/local-runtime');

  const dir = await mkdtemp(join(tmpdir(), 'bench-api-'));
  let api: LocalApi | undefined;
  try {
    progress(`seeding the demo (usage and plans) in ${dir}`);
    // One key drives the load: its rate limit (docs/http.md) is lifted, the server is measured.
    const unthrottled = { TENANT_RATE_LIMIT: '1000000', TENANT_BURST_LIMIT: '1000000' };
    api = await startLocalApi(
      readLocalConfig({ LOCAL_DIR: dir, HOST: '127.0.0.1', PORT: '0', ...unthrottled }),
      { seedUsage: true },
    );
    const { org } = api.credentials;
    const headers = { 'x-api-key': org.api_key };
    const planId = await recommendedPlanId(api.baseUrl, org.org_id, headers);
    const lineItemsUrl = `${api.baseUrl}/v1/org/${org.org_id}/commitment-plans/${planId}/line-items?${lineItemsQuery}`;

    progress(`warming up: ${warmUpRequests} line-items requests`);
    await warmUp(lineItemsUrl, headers);
    const callsBefore = api.runtime.storageCalls.total;
    const page = await expectStatus(lineItemsUrl, headers, 200);
    const warmCalls = api.runtime.storageCalls.total - callsBefore;
    console.log(
      `line-items: plan ${planId}, ${(JSON.parse(page) as unknown[]).length} line items ` +
        `a response (${Buffer.byteLength(page)} bytes)`,
    );

    progress(`running line-items: ${connections} connections x ${durationSeconds} s`);
    const runStart = api.runtime.storageCalls.total;
    const lineItems = await load(lineItemsUrl, headers);
    const runCalls = (await settledStorageCalls(api)) - runStart;
    checkAllAnswered(lineItems, 'line-items', '200');

    progress(`running the floor (${unknownPath}): ${connections} connections x ${durationSeconds} s`);
    const floor = await load(`${api.baseUrl}${unknownPath}`, headers);
    checkAllAnswered(floor, 'the floor', '404');

    // Requests in flight when the run stops are sent but never completed; the server still
    // serves them, storage calls included.
    const callsPerRequest = runCalls / lineItems.requests.sent;
    const figures = [figuresOf('line-items', lineItems), figuresOf('404 floor', floor)];
    printTable(figures);
    const [measured, baseline] = figures as [RunFigures, RunFigures];
    console.log(
      `storage calls per line-items request: ${callsPerRequest.toFixed(2)} over the run ` +
        `(${runCalls} calls / ${lineItems.requests.sent} requests sent), ${warmCalls} on one warm request`,
    );
    console.log(
      `targets: p99 <= ${targetP99Ms} ms ${verdict(measured.p99Ms <= targetP99Ms)}, ` +
        `<= ${targetStorageCalls} storage calls a request ${verdict(callsPerRequest <= targetStorageCalls)}`,
    );
    console.log(`load average at end (/proc/loadavg): ${await loadAverage()}`);
    console.log(
      JSON.stringify({
        route: 'line-items',
        rps: measured.rps,
        p99_ms: measured.p99Ms,
        floor_rps: baseline.rps,
        ratio: round(baseline.rps / measured.rps, 2),
        store_calls: round(callsPerRequest, 2),
      }),
    );
  } finally {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function loadAverage(): Promise<string> {
  return (await readFile('/proc/loadavg', 'utf8')).trim();
}

/** The storage call count once the requests still in flight after a run are served. */
async function settledStorageCalls(api: LocalApi): Promise<number> {
  let total = api.runtime.storageCalls.total;
  for (;;) {
    await setTimeout(settleIntervalMs);
    if (api.runtime.storageCalls.total === total) return total;
    total = api.runtime.storageCalls.total;
  }
}

function progress(message: string): void {
  process.stderr.write(`bench:api: ${message}\n`);
}

/** The demo customer's Recommended AWS plan, from #6 as a client finds it. */
async function recommendedPlanId(
  baseUrl: string,
  orgId: string,
  headers: Record<string, string>,
): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/org/${orgId}/commitment-plans/default?provider=aws`, {
    headers,
  });
  if (response.status !== 200) throw new Error(`The default AWS plans answered ${response.status}`);
  const plans = (await response.json()) as { id: string; name: string }[];
  const recommended = plans.find((plan) => plan.name === 'Recommended');
  if (!recommended) throw new Error('The demo customer has no Recommended AWS plan');
  return recommended.id;
}

async function warmUp(url: string, headers: Record<string, string>): Promise<void> {
  for (let sent = 0; sent < warmUpRequests; sent += warmUpConcurrency) {
    await Promise.all(Array.from({ length: warmUpConcurrency }, () => expectStatus(url, headers, 200)));
  }
}

/** The response body, once the request answered `status`. */
async function expectStatus(url: string, headers: Record<string, string>, status: number): Promise<string> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== status) throw new Error(`${url} answered ${response.status}, not ${status}`);
  return body;
}

function load(url: string, headers: Record<string, string>): Promise<Result> {
  return Promise.resolve(autocannon({ url, headers, connections, duration: durationSeconds, workers: 1 }));
}

/** Every request of the run completed, with the one status expected. */
function checkAllAnswered(result: Result, run: string, status: string): void {
  const statuses = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code} x${count}`);
  const failures = result.errors + result.timeouts;
  if (failures > 0 || Object.keys(result.statusCodeStats).some((code) => code !== status)) {
    throw new Error(
      `${run}: expected only ${status}, got ${statuses.join(', ') || 'no answer'} and ${failures} errors or timeouts`,
    );
  }
}

function figuresOf(route: string, result: Result): RunFigures {
  return {
    route,
    requests: result.requests.total,
    rps: round(result.requests.average, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

function printTable(figures: readonly RunFigures[]): void {
  const rows = [
    ['route', 'requests', 'rps', 'p50 ms', 'p99 ms', 'non-2xx'],
    ...figures.map((row) => [
      row.route,
      String(row.requests),
      row.rps.toFixed(1),
      String(row.p50Ms),
      String(row.p99Ms),
      String(row.non2xx),
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
        )
        .join('  '),
    );
  }
}

function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
