import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAzureUsageSources } from '../../../local/simulated-azure-usage-sources';
import { changeSimulatedCloud } from '../../../local/simulated-cloud';
import {
  deliverSimulatedAwsFile,
  setSimulatedAwsCommitments,
  simulatedAwsUsageSources,
} from '../../../local/simulated-usage-sources';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { importCommitments } from '../../../shared/app/import-commitments';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { syncUsage, type UsageSyncContext } from '../../../shared/app/usage-sync';
import type { ExistingCommitment } from '../../../shared/domain/engine/shapes/model';
import { syncExportReaders } from '../../../shared/exports/read-export';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { connectedAwsOrg } from '../../support/connected-aws-org';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { fleetLineItems } from '../../support/export-files';
import { cur2Parquet } from '../../support/export-parquet-files';
import { commitmentHeader, recordsOf } from '../../support/usage-files';

/**
 * The usage sync (docs/usage-sync.md) on dynalite, reading the simulated cloud's deliveries: CUR
 * 2.0 Parquet files written with hyparquet-writer, and the account's owned commitments.
 */

const serviceAccountId = '999988887777';
const azureClientId = '00000000-0000-4000-8000-00000000c0de';
const june = '2026-06-01T00:00:00Z';
const HOURS = 720;

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;
let syncCtx: UsageSyncContext;
let dir: string;
let accountNumber = 100000000000;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
  dir = await mkdtemp(join(tmpdir(), 'usage-sync-'));
  syncCtx = {
    ...ctx,
    awsSources: simulatedAwsUsageSources(dir, serviceAccountId),
    azureSources: simulatedAzureUsageSources(dir, azureClientId),
    ...syncExportReaders,
  };
});

afterAll(async () => {
  await table.close();
  await rm(dir, { recursive: true, force: true });
});

/** An org whose onboarding verified a simulated account's Data Exports export `hourly`. */
async function connectedOrg(): Promise<{ orgId: string; accountId: string }> {
  const accountId = String(accountNumber++);
  const orgId = await connectedAwsOrg(ctx, { dir, serviceAccountId }, accountId, new Date());
  return { orgId, accountId };
}

async function deliver(accountId: string, name: string, bytes: Uint8Array, period: string, replace = false) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return deliverSimulatedAwsFile(dir, accountId, path, period, replace);
}

/** The fleet's lines of `hours` hours from `start`. */
const fleetParquet = (start: string, hours: number) => cur2Parquet(fleetLineItems(start, hours));

const storedUsage = async (orgId: string) =>
  (await ctx.repos.usage.loadUsage(orgId, 'aws', { start: june, hours: HOURS + 24 * 31 }))
    .map(({ usage, ...resource }) => [resource.resourceId, usage.reduce((sum, units) => sum + units, 0)])
    .sort();

describe('syncing usage from a connected AWS account', () => {
  it('reads a delivered CUR 2.0 export, then nothing on a second sync', async () => {
    // Prepare
    const { orgId, accountId } = await connectedOrg();
    await deliver(accountId, 'june.parquet', fleetParquet(june, HOURS), '2026-06');

    // Act
    const first = await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const usageAfterFirst = await storedUsage(orgId);
    const second = await syncUsage(syncCtx, { orgId, provider: 'aws' });

    // Assess: 720 hours; per hour 1.5 web lines, 1 database, 0.5 Windows, then 3 other lines an
    // hour and 3 a file (test/support/export-files.ts): 3 x 720 + 3 x 720 + 3 rows.
    expect(first).toEqual({
      provider: 'aws',
      filesRead: 1,
      filesSkipped: 0,
      rows: 6 * HOURS + 3,
      usedRows: 3 * HOURS,
      skipped: expect.objectContaining({
        counts: expect.objectContaining({ not_usage: expect.any(Number) }),
      }),
      resources: 3,
      commitments: 0,
      firstHour: '2026-06-01T00:00:00Z',
      lastHour: '2026-06-30T23:00:00Z',
      refused: [],
    });
    // The web and database instances run every hour; the Windows one 12 hours a day (30 x 12).
    expect(usageAfterFirst).toEqual([
      ['arn:aws:rds:us-east-1:111111111111:db:orders', HOURS],
      ['i-0web00000000001', HOURS],
      ['i-0win00000000002', 360],
    ]);
    expect(second).toMatchObject({ filesRead: 0, filesSkipped: 1, rows: 0, resources: 0 });
    expect(await storedUsage(orgId)).toEqual(usageAfterFirst);
    expect(await syncCtx.repos.usageSyncStates.get(orgId, 'aws')).toMatchObject({
      outcome: { status: 'succeeded' },
      rows: 0,
    });
  });

  it('re-reads only the period delivered again, replacing its usage whole', async () => {
    // Prepare: June and 10 days of July delivered and synced; then July delivered again with 20
    // days, as AWS delivers a period again while it fills in.
    const { orgId, accountId } = await connectedOrg();
    await deliver(accountId, 'june.parquet', fleetParquet(june, HOURS), '2026-06');
    await deliver(accountId, 'july.parquet', fleetParquet('2026-07-01T00:00:00Z', 240), '2026-07');
    await syncUsage(syncCtx, { orgId, provider: 'aws' });
    await deliver(
      accountId,
      'july-again.parquet',
      fleetParquet('2026-07-01T00:00:00Z', 480),
      '2026-07',
      true,
    );

    // Act
    const synced = await syncUsage(syncCtx, { orgId, provider: 'aws' });

    // Assess: only July's one file read; the web instance's hours are June's 720 plus July's 480
    // (replaced: not 240 + 480).
    expect(synced).toMatchObject({
      filesRead: 1,
      filesSkipped: 1,
      firstHour: '2026-07-01T00:00:00Z',
      lastHour: '2026-07-20T23:00:00Z',
    });
    const usage = Object.fromEntries(
      (await ctx.repos.usage.loadUsage(orgId, 'aws', { start: june, hours: 61 * 24 })).map((stream) => [
        stream.resourceId,
        stream.usage.reduce((sum, units) => sum + units, 0),
      ]),
    );
    expect(usage['i-0web00000000001']).toBe(HOURS + 480);
  });

  it('fails on a corrupt file naming it, stores nothing of that sync, and reads it again next time', async () => {
    // Prepare
    const { orgId, accountId } = await connectedOrg();
    await deliver(accountId, 'june.parquet', fleetParquet(june, HOURS), '2026-06');
    await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const before = await storedUsage(orgId);
    // July: a good file, then a corrupt one (Parquet's magic, then garbage) in the same period.
    await deliver(accountId, 'july.parquet', fleetParquet('2026-07-01T00:00:00Z', 240), '2026-07');
    const corrupt = await deliver(
      accountId,
      'bad.parquet',
      new TextEncoder().encode('PAR1 not parquet'),
      '2026-07',
    );

    // Act
    const failed = await syncUsage(syncCtx, { orgId, provider: 'aws' }).catch((error: Error) => error);
    const state = await syncCtx.repos.usageSyncStates.get(orgId, 'aws');
    const usageAfterFailure = await storedUsage(orgId);
    await deliver(
      accountId,
      'july-fixed.parquet',
      fleetParquet('2026-07-01T00:00:00Z', 240),
      '2026-07',
      true,
    );
    const retried = await syncUsage(syncCtx, { orgId, provider: 'aws' });

    // Assess
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toContain(corrupt.key);
    expect(state?.outcome).toMatchObject({ status: 'failed', file: corrupt.key });
    expect(usageAfterFailure).toEqual(before);
    expect(retried).toMatchObject({ filesRead: 1, filesSkipped: 1 });
  });

  it("puts the account's owned commitments in the plans, and removes them once the account no longer owns them", async () => {
    // Prepare
    const { orgId, accountId } = await connectedOrg();
    await deliver(accountId, 'june.parquet', fleetParquet(june, HOURS), '2026-06');
    const reservation: ExistingCommitment = {
      id: 'ri-owned-1',
      provider: 'aws',
      accountId,
      region: 'us-east-1',
      contractType: 'standard_ris',
      instanceType: 'm5.large',
      quantity: 1,
      hourlyCommitment: 0,
      upfrontCost: 0,
      recurringCost: 0.05,
      start: '2026-01-01T00:00:00.000Z',
      end: '2027-01-01T00:00:00.000Z',
      lockinEnd: '2027-01-01T00:00:00.000Z',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    };
    await setSimulatedAwsCommitments(dir, accountId, [reservation]);

    // Act
    const synced = await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const [plan] = await listDefaultPlans(ctx, { kind: 'partner', orgId, scopes: ['*'] }, orgId, 'aws');
    await setSimulatedAwsCommitments(dir, accountId, []);
    await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const afterRemoval = await ctx.repos.commitments.listCommitments(orgId, 'aws');

    // Assess: no upfront, $0.05 an hour for the whole window: 0.05 an hour before any purchase.
    expect(synced.commitments).toBe(1);
    expect(plan?.before_reserved_cost_hourly).toBeCloseTo(0.05, 9);
    expect(afterRemoval).toEqual([]);
  });

  it('keeps imported commitments and replaces only those it wrote', async () => {
    // Prepare
    const { orgId, accountId } = await connectedOrg();
    const row = `aws,${accountId},us-east-1,standard_ris,m5.large,1,0,0,0.04,2026-01-01,2027-01-01,`;
    await importCommitments(ctx, { orgId, records: recordsOf([commitmentHeader, row]) });
    await setSimulatedAwsCommitments(dir, accountId, []);
    const imported = (await ctx.repos.commitments.listCommitments(orgId, 'aws')).map((each) => each.id);

    // Act
    await syncUsage(syncCtx, { orgId, provider: 'aws' });

    // Assess
    expect(imported.length).toBe(1);
    expect((await ctx.repos.commitments.listCommitments(orgId, 'aws')).map((each) => each.id)).toEqual(
      imported,
    );
  });

  it('records a refused role as the failed outcome, keeping the files stored before', async () => {
    // Prepare: one successful sync, then the customer deletes the role.
    const { orgId, accountId } = await connectedOrg();
    await deliver(accountId, 'june.parquet', fleetParquet(june, HOURS), '2026-06');
    await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const before = await syncCtx.repos.usageSyncStates.get(orgId, 'aws');
    await changeSimulatedCloud(dir, (cloud) => {
      (cloud.aws[accountId] as { role: unknown }).role = null;
    });

    // Act
    const failed = syncUsage(syncCtx, { orgId, provider: 'aws' });

    // Assess
    await expect(failed).rejects.toThrow('not authorized to perform: sts:AssumeRole');
    const after = await syncCtx.repos.usageSyncStates.get(orgId, 'aws');
    expect(after?.outcome).toMatchObject({ status: 'failed', file: null });
    expect(after?.files).toEqual(before?.files);
    expect(after?.lastSuccessAt).toBe(before?.lastSuccessAt);
  });

  it('refuses an org without a verified AWS export or a connected Azure subscription, and GCP', async () => {
    // Prepare
    const org = await createOrg(ctx, `Unconnected ${randomIds.uuid()}`, null);

    // Act, Assess
    await expect(syncUsage(syncCtx, { orgId: org.id, provider: 'aws' })).rejects.toThrow(
      'no AWS account connected',
    );
    await expect(syncUsage(syncCtx, { orgId: org.id, provider: 'azure' })).rejects.toThrow(
      'no Azure subscription connected',
    );
    await expect(syncUsage(syncCtx, { orgId: org.id, provider: 'gcp' })).rejects.toThrow('gcp has no sync');
  });
});
