import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAzureUsageSources } from '../../../local/simulated-azure-usage-sources';
import {
  deliverSimulatedAwsFile,
  simulatedAwsUsageSources,
  simulatedObjectPath,
} from '../../../local/simulated-usage-sources';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { syncUsage, type UsageSyncContext } from '../../../shared/app/usage-sync';
import { usageSyncCheck } from '../../../shared/domain/onboarding/usage-sync-check';
import { exportBounds } from '../../../shared/domain/usage/exports/export-bounds';
import { syncExportReaders } from '../../../shared/exports/read-export';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { connectedAwsOrg } from '../../support/connected-aws-org';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { fleetLineItems } from '../../support/export-files';
import { cur2Parquet } from '../../support/export-parquet-files';
import { dataExportsManifest, enormousFieldGzipCsv } from '../../support/oversized-exports';

/**
 * A usage sync meeting files over the bounds (docs/usage-sync.md, Bounds), on dynalite and the
 * simulated cloud, as `admin sync` runs it: the file's period is refused and recorded, the other
 * periods are stored, and the refused period is read again by the next sync.
 */

const serviceAccountId = '999988887777';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;
let syncCtx: UsageSyncContext;
let dir: string;
let accountNumber = 200000000000;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
  dir = await mkdtemp(join(tmpdir(), 'usage-sync-bounds-'));
  syncCtx = {
    ...ctx,
    awsSources: simulatedAwsUsageSources(dir, serviceAccountId),
    azureSources: simulatedAzureUsageSources(dir, '00000000-0000-4000-8000-00000000c0de'),
    ...syncExportReaders,
  };
});

afterAll(async () => {
  await table.close();
  await rm(dir, { recursive: true, force: true });
});

async function connectedOrg() {
  const accountId = String(accountNumber++);
  const orgId = await connectedAwsOrg(ctx, { dir, serviceAccountId }, accountId, new Date());
  return { orgId, accountId };
}

async function deliver(accountId: string, name: string, bytes: Uint8Array, period: string, replace = false) {
  const path = join(dir, `${accountId}-${name}`);
  await writeFile(path, bytes);
  return deliverSimulatedAwsFile(dir, accountId, path, period, replace);
}

/** The org's stored instance-hours of the 30 days from `start` (summed over its resources). */
async function storedHours(orgId: string, start: string): Promise<number> {
  const usage = await ctx.repos.usage.loadUsage(orgId, 'aws', { start, hours: 24 * 30 });
  return usage.reduce((sum, series) => sum + series.usage.reduce((hours, units) => hours + units, 0), 0);
}

describe('usage sync of files over the bounds', () => {
  it("refuses a file's period and stores the others, records the file and bound, and reads the period again next time", async () => {
    // Prepare: June synced once; then June gets a gzip CSV holding one 10 MiB field beside its
    // Parquet file, and July is delivered.
    const { orgId, accountId } = await connectedOrg();
    const fleet = (start: string) => cur2Parquet(fleetLineItems(start, 48));
    await deliver(accountId, 'june.parquet', fleet('2026-06-01T00:00:00Z'), '2026-06');
    await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const juneBefore = await storedHours(orgId, '2026-06-01T00:00:00Z');
    const bad = await deliver(accountId, 'june-2.csv.gz', enormousFieldGzipCsv(10), '2026-06');
    await deliver(accountId, 'july.parquet', fleet('2026-07-01T00:00:00Z'), '2026-07');

    // Act
    const synced = await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const state = await ctx.repos.usageSyncStates.get(orgId, 'aws');
    const juneAfter = await storedHours(orgId, '2026-06-01T00:00:00Z');
    const july = await storedHours(orgId, '2026-07-01T00:00:00Z');
    // June delivered again in full, 72 hours this time.
    const fixed = cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 72));
    await deliver(accountId, 'june-fixed.parquet', fixed, '2026-06', true);
    const again = await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const juneAgain = await storedHours(orgId, '2026-06-01T00:00:00Z');
    const stateAgain = await ctx.repos.usageSyncStates.get(orgId, 'aws');

    // Assess: the fleet runs 2.5 instance-hours an hour (the web and database instances every
    // hour, the Windows one 12 hours a day: test/support/export-files.ts).
    const refused = {
      file: bad.key,
      billingPeriod: '2026-06',
      code: 'csv_record_chars',
      reason: 'line 2 of the file is longer: over the bound csv_record_chars of 1,048,576 characters',
    };
    expect(synced.refused).toEqual([refused]);
    expect(synced.firstHour).toBe('2026-07-01T00:00:00Z');
    expect(juneBefore).toBe(48 * 2.5);
    expect(juneAfter).toBe(juneBefore);
    expect(july).toBe(48 * 2.5);
    expect(state?.outcome).toEqual({ status: 'succeeded', refused: [refused] });
    // June stays as the first sync stored it, so that the next sync reads it again.
    expect(state?.files.filter((file) => file.billingPeriod === '2026-06').map((file) => file.key)).toEqual(
      bad.files.slice(0, 1),
    );
    const item = usageSyncCheck(state);
    expect(item.status).toBe('warning');
    expect(item.detail).toContain(`refused ${bad.key} (billing period 2026-06, bound csv_record_chars)`);
    expect(item.detail).toContain('the period keeps what was stored before');
    expect(again).toMatchObject({ filesRead: 1, refused: [], firstHour: '2026-06-01T00:00:00Z' });
    expect(juneAgain).toBe(72 * 2.5);
    expect(stateAgain?.outcome).toEqual({ status: 'succeeded' });
    expect(usageSyncCheck(stateAgain).status).toBe('available');
  });

  it('refuses the period of a manifest naming too many files, and of one too large, reading the others', async () => {
    // Prepare: August and September delivered, then their manifests rewritten: August's names one
    // file more than the bound, September's is larger than the bound.
    const { orgId, accountId } = await connectedOrg();
    const bucket = `cur-${accountId}`;
    const fleet = (start: string) => cur2Parquet(fleetLineItems(start, 24));
    const august = await deliver(accountId, 'august.parquet', fleet('2026-08-01T00:00:00Z'), '2026-08');
    const september = await deliver(accountId, 'sept.parquet', fleet('2026-09-01T00:00:00Z'), '2026-09');
    await deliver(accountId, 'october.parquet', fleet('2026-10-01T00:00:00Z'), '2026-10');
    await writeFile(
      simulatedObjectPath(dir, bucket, august.manifest),
      dataExportsManifest(bucket, dirname(august.key), exportBounds.filesPerPeriod + 1),
    );
    await writeFile(
      simulatedObjectPath(dir, bucket, september.manifest),
      dataExportsManifest(bucket, dirname(september.key), 1, exportBounds.manifestBytes),
    );

    // Act
    const synced = await syncUsage(syncCtx, { orgId, provider: 'aws' });
    const october = await storedHours(orgId, '2026-10-01T00:00:00Z');

    // Assess
    expect(synced.refused).toEqual([
      {
        file: august.manifest,
        billingPeriod: '2026-08',
        code: 'files_per_period',
        reason: 'the manifest names 501 files: over the bound files_per_period of 500 files',
      },
      {
        file: september.manifest,
        billingPeriod: '2026-09',
        code: 'manifest_bytes',
        reason: expect.stringMatching(/^the manifest is \d+ bytes: over the bound manifest_bytes of 4 MiB$/),
      },
    ]);
    expect(october).toBe(24 * 2.5);
    expect(await storedHours(orgId, '2026-08-01T00:00:00Z')).toBe(0);
    expect(Date.parse(synced.lastHour ?? '')).toBe(Date.parse('2026-10-01T23:00:00Z'));
  });
});
