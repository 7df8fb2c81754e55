/**
 * The OAuth benchmark, `npm run bench:oauth` (docs/benchmarks.md): what a Bearer token costs
 * beside an API key, on the local API as `npm start` serves it (fresh demo seed, in this process).
 *
 * 1. `GET .../line-items?page_size=100` with `x-api-key` and with `Authorization: Bearer`,
 *    autocannon from a worker thread, 20 connections, in the order key, Bearer, Bearer, key (so a
 *    drift of the shared machine weighs on both paths alike). Target: a Bearer request costs at
 *    most 1.2x an API-key request (cost = 1 / requests per second, and the p50).
 * 2. The token endpoint's refresh grant: each request rotates its refresh token, so no fixed
 *    request can be replayed; 10 chains (one authorization each) refresh in a loop from this
 *    thread, beside the same loop on line-items with the API key.
 *
 * Prints the figures and, as its last line, one JSON object.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon, { type Result } from 'autocannon';
import * as oauth from 'oauth4webapi';
import type { LocalApi } from '../../local/local-api';

const connections = 20;
const durationSeconds = 8;
const warmUpRequests = 200;
const warmUpConcurrency = 10;
/** Refresh chains running at once, and how long the in-thread loops run. */
const chains = 10;
const loopSeconds = 8;
const lineItemsQuery = 'page_size=100';
const redirectUri = 'http://127.0.0.1:53682/callback';
/** Issue 12: a Bearer request costs at most 1.2x an API-key request. */
const targetRatio = 1.2;

interface Figures {
  readonly run: string;
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

async function main(): Promise<void> {
  console.log(`load average at start (/proc/loadavg): ${await loadAverage()}`);
  // Request logs (one JSON line a request) would bury the figures; set before the server's
  // modules load, as their loggers read it once.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const { startLocalApi } = await import('../../local/local-api');
  const { readLocalConfig } = await import('../../local/local-runtime');
  const { demoOAuthClient, demoUserEmail } = await import('../../local/demo-seed');
  const { PageBrowser, walkConsent } = await import('../support/oauth-person');

  const dir = await mkdtemp(join(tmpdir(), 'bench-oauth-'));
  let api: LocalApi | undefined;
  try {
    progress(`seeding the demo (usage and plans) in ${dir}`);
    const unthrottled = { TENANT_RATE_LIMIT: '1000000', TENANT_BURST_LIMIT: '1000000' };
    api = await startLocalApi(
      readLocalConfig({ LOCAL_DIR: dir, HOST: '127.0.0.1', PORT: '0', ...unthrottled }),
      { seedUsage: true },
    );
    const started = api;
    const { org } = started.credentials;

    progress(`authorizing ${chains + 1} times (one sign-in, the person's session is kept)`);
    const browser = new PageBrowser();
    const authorize = async () => {
      const verifier = oauth.generateRandomCodeVerifier();
      const url = new URL(`${started.baseUrl}/oauth/authorize`);
      url.search = new URLSearchParams({
        client_id: demoOAuthClient.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'plans:read',
        state: oauth.generateRandomState(),
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const callback = await walkConsent(url, {
        baseUrl: started.baseUrl,
        dir,
        email: demoUserEmail,
        browser,
      });
      return tokenRequest(started.baseUrl, {
        grant_type: 'authorization_code',
        client_id: demoOAuthClient.clientId,
        code: callback.searchParams.get('code') as string,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
    };
    const bearer = await authorize();
    const refreshTokens: string[] = [];
    for (let chain = 0; chain < chains; chain++) refreshTokens.push((await authorize()).refresh_token);

    const keyHeaders = { 'x-api-key': org.api_key };
    const bearerHeaders = { authorization: `Bearer ${bearer.access_token}` };
    const planId = await recommendedPlanId(started.baseUrl, org.org_id, keyHeaders);
    const lineItemsUrl = `${started.baseUrl}/v1/org/${org.org_id}/commitment-plans/${planId}/line-items?${lineItemsQuery}`;

    progress(`warming up: ${warmUpRequests} line-items requests with each credential`);
    await warmUp(lineItemsUrl, keyHeaders);
    await warmUp(lineItemsUrl, bearerHeaders);

    const runs: Figures[] = [];
    for (const [run, headers] of [
      ['line-items, API key (1)', keyHeaders],
      ['line-items, Bearer (1)', bearerHeaders],
      ['line-items, Bearer (2)', bearerHeaders],
      ['line-items, API key (2)', keyHeaders],
    ] as const) {
      progress(`running ${run}: ${connections} connections x ${durationSeconds} s (autocannon, worker)`);
      const result = await load(lineItemsUrl, headers);
      checkAllAnswered(result, run);
      runs.push(figuresOf(run, result));
    }

    progress(`running the refresh grant: ${chains} chains x ${loopSeconds} s (this thread)`);
    const refreshLoop = await loop(chains, async (chain) => {
      const tokens = await tokenRequest(started.baseUrl, {
        grant_type: 'refresh_token',
        client_id: demoOAuthClient.clientId,
        refresh_token: refreshTokens[chain] as string,
      });
      refreshTokens[chain] = tokens.refresh_token;
    });
    progress(`running line-items with the API key: ${chains} loops x ${loopSeconds} s (this thread)`);
    const keyLoop = await loop(chains, async () => {
      const response = await fetch(lineItemsUrl, { headers: keyHeaders });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`line-items answered ${response.status}`);
    });
    runs.push(
      { run: 'token, refresh grant (loop)', ...refreshLoop },
      { run: 'line-items, API key (loop)', ...keyLoop },
    );
    printTable(runs);

    // The autocannon runs only: the loops' figures come from another load generator.
    const byPath = (path: string) =>
      runs.filter((figures) => new RegExp(`^line-items, ${path} \\(\\d\\)$`).test(figures.run));
    const key = mean(byPath('API key'));
    const token = mean(byPath('Bearer'));
    const costRatio = round(key.rps / token.rps, 2);
    const p50Ratio = round(token.p50Ms / key.p50Ms, 2);
    console.log(
      `Bearer / API key on line-items: cost per request ${costRatio}x (from requests/s), p50 ${p50Ratio}x; ` +
        `target <= ${targetRatio}x ${costRatio <= targetRatio ? 'met' : 'NOT met'}`,
    );
    console.log(`load average at end (/proc/loadavg): ${await loadAverage()}`);
    console.log(
      JSON.stringify({
        key_rps: key.rps,
        key_p50_ms: key.p50Ms,
        key_p99_ms: key.p99Ms,
        bearer_rps: token.rps,
        bearer_p50_ms: token.p50Ms,
        bearer_p99_ms: token.p99Ms,
        bearer_cost_ratio: costRatio,
        refresh_rps: refreshLoop.rps,
        refresh_p50_ms: refreshLoop.p50Ms,
        refresh_p99_ms: refreshLoop.p99Ms,
        key_loop_rps: keyLoop.rps,
      }),
    );
  } finally {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

interface TokenResponse {
  readonly access_token: string;
  readonly refresh_token: string;
}

async function tokenRequest(baseUrl: string, form: Record<string, string>): Promise<TokenResponse> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`The token endpoint answered ${response.status}: ${body}`);
  return JSON.parse(body) as TokenResponse;
}

/** `concurrency` loops of `request` for `loopSeconds`: requests/s and latency percentiles. */
async function loop(concurrency: number, request: (index: number) => Promise<void>) {
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + loopSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      while (performance.now() < end) {
        const sent = performance.now();
        await request(index);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0, 1);
  return {
    requests: latencies.length,
    rps: round(latencies.length / seconds, 1),
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
  };
}

function mean(runs: readonly Figures[]): Omit<Figures, 'run'> {
  const average = (pick: (figures: Figures) => number) =>
    round(runs.reduce((sum, figures) => sum + pick(figures), 0) / runs.length, 1);
  return {
    requests: runs.reduce((sum, figures) => sum + figures.requests, 0),
    rps: average((figures) => figures.rps),
    p50Ms: average((figures) => figures.p50Ms),
    p99Ms: average((figures) => figures.p99Ms),
  };
}

async function loadAverage(): Promise<string> {
  return (await readFile('/proc/loadavg', 'utf8')).trim();
}

function progress(message: string): void {
  process.stderr.write(`bench:oauth: ${message}\n`);
}

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
    await Promise.all(
      Array.from({ length: warmUpConcurrency }, async () => {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${url} answered ${response.status} while warming up`);
      }),
    );
  }
}

function load(url: string, headers: Record<string, string>): Promise<Result> {
  return Promise.resolve(autocannon({ url, headers, connections, duration: durationSeconds, workers: 1 }));
}

function checkAllAnswered(result: Result, run: string): void {
  const failures = result.errors + result.timeouts;
  if (failures > 0 || Object.keys(result.statusCodeStats).some((code) => code !== '200')) {
    const statuses = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code} x${count}`);
    throw new Error(
      `${run}: expected only 200, got ${statuses.join(', ')} and ${failures} errors or timeouts`,
    );
  }
}

function figuresOf(run: string, result: Result): Figures {
  return {
    run,
    requests: result.requests.total,
    rps: round(result.requests.average, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

function printTable(figures: readonly Figures[]): void {
  const rows = [
    ['run', 'requests', 'rps', 'p50 ms', 'p99 ms'],
    ...figures.map((row) => [
      row.run,
      String(row.requests),
      row.rps.toFixed(1),
      String(row.p50Ms),
      String(row.p99Ms),
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

function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
