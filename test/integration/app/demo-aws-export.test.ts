import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDemoAwsExport } from '../../../local/demo/demo-aws-export';
import { generateCommitments } from '../../../local/demo/synthetic-commitments';
import { generateFleet } from '../../../local/demo/synthetic-fleet';
import { simulatedAzureUsageSources } from '../../../local/simulated-azure-usage-sources';
import { changeSimulatedCloud, connectedAwsAccount } from '../../../local/simulated-cloud';
import { simulatedAwsUsageSources } from '../../../local/simulated-usage-sources';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { storeProviderCommitments } from '../../../shared/app/import-commitments';
import { storeProviderUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere, refreshPlans } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { syncUsage, type UsageSyncContext } from '../../../shared/app/usage-sync';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { check } from '../../../shared/domain/onboarding/checklist';
import { newOnboardingRecord } from '../../../shared/domain/onboarding/onboarding-record';
import { providerUsageFromStreams } from '../../../shared/domain/usage/imported-usage';
import { syncExportReaders } from '../../../shared/exports/read-export';
import { randomIds } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';

/**
 * The demo's AWS path (local/demo/demo-aws-export.ts): a synthetic fleet delivered as CUR 2.0
 * Parquet files into the simulated account, with its owned commitments as the describe answers,
 * then synced, plans as the same fleet stored directly does (what the demo seeded before).
 */

const HOUR_MS = 3_600_000;
const serviceAccountId = '999988887777';
const accountId = '210987654321';
// 30 days ending 2026-11-10T12:00Z: the window spans October and November.
const endHour = Date.parse('2026-11-10T12:00:00Z') / HOUR_MS;
const hours = 720;
const startHour = endHour - hours;
const clock = { now: () => new Date(endHour * HOUR_MS) };

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;
let dir: string;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock, ids: randomIds });
  dir = await mkdtemp(join(tmpdir(), 'demo-aws-export-'));
});

afterAll(async () => {
  await table.close();
  await rm(dir, { recursive: true, force: true });
});

const catalog = loadCatalog();
const window = { start: new Date(startHour * HOUR_MS).toISOString(), hours };
const streams = generateFleet({ seed: 'demo-aws', provider: 'aws', streams: 40, window, catalog });
const commitments = generateCommitments({
  seed: 'demo-aws',
  provider: 'aws',
  streams,
  window,
  catalog,
  count: 4,
});

/**
 * The plans' figures, to 9 decimals: the engine adds the same hours in another order when the
 * resources come in another (the export names EC2 instances by their bare id), which moves the
 * last bits of a sum.
 */
async function planFigures(orgId: string) {
  const plans = await listDefaultPlans(ctx, { kind: 'partner', orgId, scopes: ['*'] }, orgId, 'aws');
  return plans.map((plan) => ({
    name: plan.name,
    savings: plan.savings_hourly.toFixed(9),
    coverage: plan.commitment_coverage.toFixed(9),
    before: plan.before_reserved_cost_hourly.toFixed(9),
  }));
}

describe('the demo AWS fleet through the export path', () => {
  it('is delivered one CUR 2.0 file a billing period, and synced, plans as the fleet stored directly', async () => {
    // Prepare: one org stores the fleet's usage and commitments directly; another's onboarding
    // verified the simulated account the fleet's export is delivered to.
    const direct = await createOrg(ctx, 'Direct', null);
    await storeProviderUsage(ctx, direct.id, providerUsageFromStreams('aws', startHour, streams));
    await storeProviderCommitments(ctx, direct.id, 'aws', commitments);
    await refreshPlans(ctx, direct.id, 'aws');
    const synced = await createOrg(ctx, 'Synced', null);
    const externalId = 'cpo-demo-export';
    const at = clock.now().toISOString();
    await ctx.repos.onboarding.createOrGet({
      ...newOnboardingRecord({ orgId: synced.id, onboardingId: randomIds.uuid(), externalId, at }),
      aws: {
        accountId,
        existingCur: { region: 'us-east-1', bucket: 'demo-exports', prefix: 'cur', reportName: 'hourly' },
        verification: { checkedAt: at, items: [check('cur_export', 'available', 'Data Exports hourly')] },
      },
    });
    await changeSimulatedCloud(dir, (cloud) => {
      cloud.aws[accountId] = connectedAwsAccount({
        serviceAccountId,
        externalId,
        bucket: 'demo-exports',
        prefix: 'cur',
        reportName: 'hourly',
      });
    });

    // Act
    const periods = await deliverDemoAwsExport({ dir, accountId, streams, startHour, commitments });
    const summary = await syncUsage(
      {
        ...ctx,
        awsSources: simulatedAwsUsageSources(dir, serviceAccountId, clock.now),
        azureSources: simulatedAzureUsageSources(dir, 'demo-client', clock.now),
        ...syncExportReaders,
      } satisfies UsageSyncContext,
      { orgId: synced.id, provider: 'aws' },
    );

    // Assess: a file and a manifest a period, in the Data Exports layout.
    expect(periods).toEqual(['2026-10', '2026-11']);
    const root = join(dir, 'cloud', 'aws', 'demo-exports', 'cur', 'hourly');
    expect(await readdir(join(root, 'data', 'BILLING_PERIOD=2026-10'))).toEqual([
      'hourly-00001.snappy.parquet',
    ]);
    expect(await readdir(join(root, 'metadata', 'BILLING_PERIOD=2026-11'))).toEqual(['hourly-Manifest.json']);
    // Every stream that ran is a resource; the window's hours are read (October's from its
    // first hour: a period replaces its usage whole); the commitments the account still owns.
    const ran = streams.filter((stream) => stream.usage.some((units) => units > 0));
    const owned = commitments.filter((commitment) => Date.parse(commitment.end) > clock.now().getTime());
    expect(summary).toMatchObject({
      filesRead: 2,
      filesSkipped: 0,
      resources: ran.length,
      commitments: owned.length,
      firstHour: '2026-10-01T00:00:00Z',
    });
    expect(Date.parse(summary.lastHour ?? '') / HOUR_MS).toBeLessThanOrEqual(endHour - 1);
    expect(await planFigures(synced.id)).toEqual(await planFigures(direct.id));
  });
});
