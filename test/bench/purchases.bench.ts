/**
 * The purchases benchmark, `npm run bench:purchases` (docs/benchmarks.md): the local API as
 * `npm start` serves it, with 100 orgs whose Recommended AWS plan has about 15 line items, all
 * applied at once over HTTP (#8). Prints apply p50/p99, the time until every purchase is settled,
 * purchases per second and the double purchases, then one JSON line of the figures. Two
 * references beside them: the same callers each reading their plan at once, and 25 more plans
 * applied one at a time on a quiet server (each once the previous one's purchases settled).
 *
 * The server runs in this process, so the simulated marketplace can be watched: a purchase it
 * made (not one it answered again for a repeated client token) is counted per client token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalApi } from '../../local/local-api';
import type { Marketplace } from '../../shared/cloud/marketplace/marketplace';
import type { SimulatedMarketplace } from '../../shared/cloud/marketplace/simulated-marketplace';

const orgCount = 100;
/**
 * Orgs applied one at a time after the run, each once the previous one's purchases have settled:
 * what one apply costs on a quiet server (the reference beside the 100 at once).
 */
const quietApplies = 25;
/** The demo's AWS fleet size: its Recommended plan has about 15 line items. */
const fleetStreams = 120;
const lookbackHours = 720;
const HOUR_MS = 3_600_000;
/** How long the purchases may take before the run gives up and reports what is left. */
const settleTimeoutMs = 60_000;
const targetApplyP99Ms = 100;
/**
 * How many applies are in flight at once: all 100 by default (the issue's scenario); a client pool
 * of, say, 10 (`APPLY_CONCURRENCY=10`) shows what one apply costs while the processor runs.
 */
const applyConcurrency = Number(process.env.APPLY_CONCURRENCY ?? orgCount);

async function main(): Promise<void> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const { startLocalApi } = await import('../../local/local-api');
  const { readLocalConfig } = await import('../../local/local-runtime');

  const dir = await mkdtemp(join(tmpdir(), 'bench-purchases-'));
  let api: LocalApi | undefined;
  const made = new Map<string, number>();
  const tokens = new Set<string>();
  try {
    api = await startLocalApi(
      readLocalConfig({
        LOCAL_DIR: dir,
        HOST: '127.0.0.1',
        PORT: '0',
        TENANT_RATE_LIMIT: '1000000',
        TENANT_BURST_LIMIT: '1000000',
      }),
      { seedUsage: false, marketplace: (simulated) => countingMarketplace(simulated, made, tokens) },
    );

    progress(`seeding ${orgCount} orgs with ${fleetStreams} AWS usage streams each`);
    const orgs = await seedOrgs(api, orgCount, 0);
    const lineItems = orgs.reduce((total, org) => total + org.lineItems, 0);
    progress(`${lineItems} selected line items in all (${(lineItems / orgCount).toFixed(1)} a plan)`);

    progress(`applying ${orgCount} plans, ${applyConcurrency} at a time`);
    const startedAt = performance.now();
    const baseUrl = api.baseUrl;
    const applyLatencies = await timedRequests(orgs, applyConcurrency, (org) =>
      fetch(`${baseUrl}/v1/org/${org.orgId}/commitment-plans/${org.planId}/apply`, {
        method: 'POST',
        headers: { 'x-api-key': org.apiKey },
      }),
    );
    const settled = await settle(api, orgs, startedAt);
    const settleMs = settled.at - startedAt;

    // The reference: the same callers at the same concurrency, each reading its plan once (an
    // authorized GET, a few table reads, nothing written), with nothing else running: what the
    // lightest request costs the local runtime when 100 arrive at once.
    progress(`reading the ${orgCount} plans, ${applyConcurrency} at a time (the reference)`);
    const readLatencies = await timedRequests(orgs, applyConcurrency, (org) =>
      fetch(`${baseUrl}/v1/org/${org.orgId}/commitment-plans/${org.planId}`, {
        headers: { 'x-api-key': org.apiKey },
      }),
    );

    // The reference for one apply: more orgs, each applied alone on a quiet server (the queue idle).
    // Skipped when the run did not settle: the queue would never be quiet.
    progress(`seeding ${quietApplies} more orgs, then applying their plans one at a time`);
    const quietOrgs = settled.done ? await seedOrgs(api, quietApplies, orgCount) : [];
    const quietLatencies: number[] = [];
    for (const org of quietOrgs) {
      await api.purchasing.queue.idle();
      const [latency] = await timedRequests([org], 1, (each) =>
        fetch(`${baseUrl}/v1/org/${each.orgId}/commitment-plans/${each.planId}/apply`, {
          method: 'POST',
          headers: { 'x-api-key': each.apiKey },
        }),
      );
      quietLatencies.push(latency as number);
    }
    if (!(await settle(api, quietOrgs, performance.now())).done) {
      throw new Error('the plans applied one at a time did not settle');
    }

    const records = (
      await Promise.all(
        [...orgs, ...quietOrgs].map((org) => api?.runtime.ctx.repos.purchases.listByPlan(org.planId)),
      )
    ).flatMap((each) => each ?? []);
    const completed = records.filter((record) => record.status === 'completed');
    const doubleTokens = [...made.values()].reduce((total, count) => total + Math.max(0, count - 1), 0);
    const perLine = new Map<string, number>();
    for (const record of completed) {
      const key = `${record.planId}:${record.lineItemId}`;
      perLine.set(key, (perLine.get(key) ?? 0) + 1);
    }
    const doubleRecords = [...perLine.values()].reduce((total, count) => total + Math.max(0, count - 1), 0);
    // A completed record with no purchase the marketplace made for its token, or the reverse.
    const unmatched =
      completed.filter((record) => !tokens.has(record.clientToken)).length +
      Math.max(0, tokens.size - completed.length);
    const doubles = doubleTokens + doubleRecords;

    const sorted = [...applyLatencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 0.5);
    const p99 = percentile(sorted, 0.99);
    const sortedReads = [...readLatencies].sort((a, b) => a - b);
    const readP50 = percentile(sortedReads, 0.5);
    const readP99 = percentile(sortedReads, 0.99);
    const sortedQuiet = [...quietLatencies].sort((a, b) => a - b);
    const quietP50 = percentile(sortedQuiet, 0.5);
    const quietP99 = percentile(sortedQuiet, 0.99);
    const appliedAtOnce = new Set(orgs.map((org) => org.planId));
    const perSecond =
      completed.filter((record) => appliedAtOnce.has(record.planId)).length / (settleMs / 1000);
    console.log(`plans applied:            ${orgCount} (${lineItems} line items)`);
    console.log(`apply latency:            p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    console.log(
      `reference, plan reads:    p50 ${readP50.toFixed(1)} ms, p99 ${readP99.toFixed(1)} ms (the same callers, one GET each, nothing else running)`,
    );
    console.log(
      `reference, quiet applies: p50 ${quietP50.toFixed(1)} ms, p99 ${quietP99.toFixed(1)} ms (${quietApplies} more plans applied one at a time, each once the previous one's purchases settled)`,
    );
    console.log(
      `all purchases settled:    ${settled.done ? `${(settleMs / 1000).toFixed(2)} s after the first apply` : `NOT within ${settleTimeoutMs / 1000} s`}`,
    );
    console.log(
      `records:                  ${completed.length} completed, ${records.length - completed.length} not completed (both runs)`,
    );
    console.log(`purchases per second:     ${perSecond.toFixed(1)}`);
    console.log(
      `double purchases:         ${doubles} (${doubleTokens} lines bought twice, ${doubleRecords} lines completed twice; ${unmatched} records and purchases unmatched)`,
    );
    console.log(
      `targets: zero doubles ${verdict(doubles === 0)}, apply p99 <= ${targetApplyP99Ms} ms ${verdict(p99 <= targetApplyP99Ms)}`,
    );
    console.log(
      JSON.stringify({
        plans: orgCount,
        apply_concurrency: applyConcurrency,
        line_items: lineItems,
        apply_p50_ms: round(p50),
        apply_p99_ms: round(p99),
        read_p50_ms: round(readP50),
        read_p99_ms: round(readP99),
        quiet_apply_p50_ms: round(quietP50),
        quiet_apply_p99_ms: round(quietP99),
        settled_s: settled.done ? round(settleMs / 1000) : null,
        completed: completed.length,
        not_completed: records.length - completed.length,
        purchases_per_s: round(perSecond),
        doubles,
        unmatched,
      }),
    );
  } finally {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Sends one request per org, `concurrency` in flight at a time, and answers each one's latency in
 * milliseconds (until its body is read); any answer but 200 stops the run.
 */
async function timedRequests(
  orgs: readonly BenchOrg[],
  concurrency: number,
  send: (org: BenchOrg) => Promise<Response>,
): Promise<number[]> {
  const waiting = [...orgs];
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, orgs.length)) }, async () => {
      for (let org = waiting.shift(); org; org = waiting.shift()) {
        const sent = performance.now();
        const response = await send(org);
        await response.text();
        if (response.status !== 200) throw new Error(`answered ${response.status} for ${org.orgId}`);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return latencies;
}

interface BenchOrg {
  readonly orgId: string;
  readonly apiKey: string;
  readonly planId: string;
  readonly lineItems: number;
}

/**
 * `count` orgs (numbered from `first`) with the demo's AWS fleet (30 days), an admin key each, and
 * their plans computed.
 */
async function seedOrgs(api: LocalApi, count: number, first: number): Promise<BenchOrg[]> {
  const { ctx } = api.runtime;
  const { createOrg, createUserKey } = await import('../../shared/app/operator');
  const { storeProviderUsage } = await import('../../shared/app/import-usage');
  const { refreshPlans } = await import('../../shared/app/plan-computation');
  const { loadCatalog } = await import('../../shared/domain/catalog/catalog');
  const { providerUsageFromStreams } = await import('../../shared/domain/usage/imported-usage');
  const { generateFleet } = await import('../../local/demo/synthetic-fleet');
  const { selectedLineItems } = await import('../../shared/domain/purchases/purchase-record');
  const catalog = loadCatalog();
  const endHour = Math.floor(ctx.clock.now().getTime() / HOUR_MS);
  const startHour = endHour - lookbackHours;
  const window = { start: new Date(startHour * HOUR_MS).toISOString(), hours: lookbackHours };
  const streams = generateFleet({
    seed: 'bench-aws',
    provider: 'aws',
    streams: fleetStreams,
    window,
    catalog,
  });
  const usage = providerUsageFromStreams('aws', startHour, streams);

  const orgs: BenchOrg[] = [];
  for (let index = first; index < first + count; index++) {
    const org = await createOrg(ctx, `Bench Customer ${index}`, null);
    const { key } = await createUserKey(ctx, org.id, `admin@bench-${index}.example`, 'admin');
    await storeProviderUsage(ctx, org.id, usage);
    await refreshPlans(ctx, org.id, 'aws');
    const plans = await ctx.repos.plans.planSet(org.id, 'aws');
    const recommendedId = plans?.computed?.recommendedPlanId;
    if (!recommendedId) throw new Error(`org ${org.id} has no Recommended AWS plan`);
    const content = await ctx.repos.plans.planContent(org.id, recommendedId);
    if (!content) throw new Error(`plan ${recommendedId} has no content`);
    orgs.push({
      orgId: org.id,
      apiKey: key.apiKey,
      planId: recommendedId,
      lineItems: selectedLineItems(content.lineItems).length,
    });
  }
  return orgs;
}

/** Waits until the queue is idle and every plan has ended, or the timeout passes. */
async function settle(
  api: LocalApi,
  orgs: readonly BenchOrg[],
  startedAt: number,
): Promise<{ readonly done: boolean; readonly at: number }> {
  const deadline = startedAt + settleTimeoutMs;
  const idle = api.purchasing.queue.idle();
  for (;;) {
    const finished = await Promise.race([
      idle.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 50)),
    ]);
    if (finished) {
      const at = performance.now();
      const plans = await Promise.all(
        orgs.map((org) => api.runtime.ctx.repos.plans.getPlans(org.orgId, 'aws', [org.planId])),
      );
      const ended = plans.every(
        ([plan]) => plan?.plan.status === 'completed' || plan?.plan.status === 'needs_review',
      );
      return { done: ended, at };
    }
    if (performance.now() > deadline) return { done: false, at: performance.now() };
  }
}

/** The local marketplace, counting each purchase it makes (not one it answers again) per client token. */
function countingMarketplace(
  simulated: SimulatedMarketplace,
  made: Map<string, number>,
  tokens: Set<string>,
): Marketplace {
  return {
    async purchase(request) {
      const before = simulated.purchases().length;
      const result = await simulated.purchase(request);
      if (simulated.purchases().length > before) {
        // Per line item, not per token: a token minted per attempt would buy the line twice.
        const line = `${request.planId}:${request.lineItemId}`;
        made.set(line, (made.get(line) ?? 0) + 1);
        tokens.add(request.clientToken);
      }
      return result;
    },
  };
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

function progress(message: string): void {
  process.stderr.write(`bench:purchases: ${message}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
