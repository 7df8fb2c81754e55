import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAzureUsageSources } from '../../../local/simulated-azure-usage-sources';
import { deliverSimulatedAwsFile, simulatedAwsUsageSources } from '../../../local/simulated-usage-sources';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { UsageSyncMessage } from '../../../shared/app/ports/usage-sync';
import { handleUsageSyncMessage, type UsageSyncRunContext } from '../../../shared/app/usage-sync-run';
import { usageSyncCheck } from '../../../shared/domain/onboarding/usage-sync-check';
import { syncExportReaders } from '../../../shared/exports/read-export';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { createSyncRunRepository } from '../../../shared/store/usage-sync-runs';
import { connectedAwsOrg } from '../../support/connected-aws-org';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { fleetLineItems } from '../../support/export-files';
import { cur2Parquet } from '../../support/export-parquet-files';
import { enormousFieldGzipCsv } from '../../support/oversized-exports';

/**
 * The deployed sync (docs/usage-sync.md, Deployed) meeting a file over a bound: its part is
 * staged refused, the run goes on to its finish, which stores the other periods and records the
 * refused file; nothing dead-letters.
 */

const serviceAccountId = '999988887777';

let table: TestTable;
let base: WithPlanComputation<AppContext>;
let dir: string;

beforeAll(async () => {
  table = await startTestTable();
  base = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
  dir = await mkdtemp(join(tmpdir(), 'usage-sync-run-bounds-'));
});

afterAll(async () => {
  await table.close();
  await rm(dir, { recursive: true, force: true });
});

async function deliver(accountId: string, name: string, bytes: Uint8Array, period: string) {
  const path = join(dir, `${accountId}-${name}`);
  await writeFile(path, bytes);
  return deliverSimulatedAwsFile(dir, accountId, path, period, false);
}

describe('the deployed usage sync and the bounds', () => {
  it("stages a file over a bound refused and stores the run's other periods", async () => {
    // Prepare: June holds a Parquet file and a gzip CSV with one 10 MiB field; July a Parquet file.
    const accountId = '300000000001';
    const orgId = await connectedAwsOrg(base, { dir, serviceAccountId }, accountId, new Date());
    await deliver(
      accountId,
      'june.parquet',
      cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 24)),
      '2026-06',
    );
    const bad = await deliver(accountId, 'june-2.csv.gz', enormousFieldGzipCsv(10), '2026-06');
    await deliver(
      accountId,
      'july.parquet',
      cur2Parquet(fleetLineItems('2026-07-01T00:00:00Z', 24)),
      '2026-07',
    );
    const pending: UsageSyncMessage[] = [];
    const answers: string[] = [];
    const ctx: UsageSyncRunContext = {
      ...base,
      awsSources: simulatedAwsUsageSources(dir, serviceAccountId),
      azureSources: simulatedAzureUsageSources(dir, 'unused-client'),
      ...syncExportReaders,
      syncRuns: createSyncRunRepository(table),
      syncQueue: { send: async (messages) => void pending.push(...messages) },
    };
    const runId = randomIds.uuid();
    pending.push({ kind: 'sync', orgId, provider: 'aws', runId });

    // Act: every message, in order, once.
    for (let message = pending.shift(); message; message = pending.shift()) {
      answers.push(await handleUsageSyncMessage(ctx, message));
    }
    const run = await ctx.syncRuns.get(orgId, 'aws', runId);
    const state = await base.repos.usageSyncStates.get(orgId, 'aws');
    const hoursOf = async (start: string) =>
      (await base.repos.usage.loadUsage(orgId, 'aws', { start, hours: 24 * 30 })).reduce(
        (sum, series) => sum + series.usage.reduce((hours, units) => hours + units, 0),
        0,
      );

    // Assess: the fleet runs 2.5 instance-hours an hour (test/support/export-files.ts).
    expect(answers).toEqual(['3 parts', 'staged 1 of 3', 'staged 2 of 3', 'staged the last part', 'stored']);
    expect(run).toMatchObject({ failed: null, finishedAt: expect.any(String) });
    expect(await hoursOf('2026-06-01T00:00:00Z')).toBe(0);
    expect(await hoursOf('2026-07-01T00:00:00Z')).toBe(24 * 2.5);
    expect(state?.outcome).toEqual({
      status: 'succeeded',
      refused: [
        {
          file: bad.key,
          billingPeriod: '2026-06',
          code: 'csv_record_chars',
          reason: 'line 2 of the file is longer: over the bound csv_record_chars of 1,048,576 characters',
        },
      ],
    });
    expect(state?.files.map((file) => file.billingPeriod)).toEqual(['2026-07']);
    expect(usageSyncCheck(state).detail).toContain(
      `refused ${bad.key} (billing period 2026-06, bound csv_record_chars)`,
    );
  });
});
