import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAzureUsageSources } from '../../../local/simulated-azure-usage-sources';
import { deliverSimulatedAwsFile, simulatedAwsUsageSources } from '../../../local/simulated-usage-sources';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { SyncRunRepository, UsageSyncMessage } from '../../../shared/app/ports/usage-sync';
import {
  FINISH_CLAIM_SECONDS,
  handleUsageSyncMessage,
  type UsageSyncRunContext,
} from '../../../shared/app/usage-sync-run';
import { syncExportReaders } from '../../../shared/exports/read-export';
import { randomIds } from '../../../shared/runtime/app-context';
import { createSyncRunRepository } from '../../../shared/store/usage-sync-runs';
import { connectedAwsOrg } from '../../support/connected-aws-org';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { fleetLineItems } from '../../support/export-files';
import { cur2Parquet } from '../../support/export-parquet-files';

/**
 * The deployed sync's messages (docs/usage-sync.md, Deployed) delivered as SQS may: duplicated,
 * in any order, and with invocations killed between their steps (after staging a part's hours
 * but before counting it, after counting it but before sending the finish, in the finish after
 * its claim). After each random history the queue is drained with crashes off. The stored usage
 * must then be the export's, counted once: a part staged twice, or a finish run twice, would
 * show as more hours.
 *
 * The export: June in two CUR 2.0 Parquet files (hours 0-359 and 360-719), the second read in
 * ranges of its row groups (parts of at most 1,500 rows), on dynalite and the simulated cloud.
 */

const RUNS = Number(process.env.USAGE_SYNC_MODEL_RUNS ?? 6);
const serviceAccountId = '999988887777';
const june = '2026-06-01T00:00:00Z';

/** Thrown where the model kills an invocation half-way. */
class Crash extends Error {}

let table: TestTable;
let base: WithPlanComputation<AppContext>;
let dir: string;
let accountNumber = 200000000000;
let now = Date.parse('2026-07-02T03:00:00Z');

beforeAll(async () => {
  table = await startTestTable();
  base = computingPlansHere({ repos: table.store, clock: { now: () => new Date(now) }, ids: randomIds });
  dir = await mkdtemp(join(tmpdir(), 'usage-sync-run-'));
});

afterAll(async () => {
  await table.close();
  await rm(dir, { recursive: true, force: true });
});

async function connectedOrg(): Promise<string> {
  const accountId = String(accountNumber++);
  const orgId = await connectedAwsOrg(base, { dir, serviceAccountId }, accountId, new Date(now));
  const items = fleetLineItems(june, 720);
  const first = items.filter((item) => item.start < Date.parse('2026-06-16T00:00:00Z'));
  const second = items.filter((item) => !first.includes(item));
  for (const [name, lines] of [
    ['a', first],
    ['b', second],
  ] as const) {
    const path = join(dir, `${accountId}-${name}.parquet`);
    await writeFile(path, cur2Parquet(lines, name === 'b' ? 500 : 5000));
    await deliverSimulatedAwsFile(dir, accountId, path, '2026-06', false);
  }
  return orgId;
}

/** Where an invocation may be killed, and whether it is now. */
interface Faults {
  crashNext: 'afterChunks' | 'afterCount' | 'inFinish' | null;
}

function crashingRuns(runs: SyncRunRepository, faults: Faults): SyncRunRepository {
  const crashIf = (point: Faults['crashNext']) => {
    if (faults.crashNext === point) {
      faults.crashNext = null;
      throw new Crash(point ?? '');
    }
  };
  return {
    ...runs,
    async stage(run, part) {
      if (faults.crashNext === 'afterChunks') {
        // The part's chunks are written (they are keyed by run and part), its count is not: the
        // same chunks staged under a run item that does not exist, whose count update fails.
        await runs.stage({ ...run, orgId: `${run.orgId}-crashed` }, part).catch(() => null);
        crashIf('afterChunks');
      }
      const count = await runs.stage(run, part);
      crashIf('afterCount');
      return count;
    },
    stagedParts(run) {
      crashIf('inFinish');
      return runs.stagedParts(run);
    },
  };
}

const action = fc.oneof(
  fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('crash' as const),
    pick: fc.nat(),
    at: fc.constantFrom('afterChunks' as const, 'afterCount' as const, 'inFinish' as const),
  }),
);

describe('the deployed usage sync, exactly once', () => {
  it('stores the export once whatever the deliveries, duplicates and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (history) => {
        // Prepare
        const orgId = await connectedOrg();
        const pending: UsageSyncMessage[] = [];
        const faults: Faults = { crashNext: null };
        const ctx: UsageSyncRunContext = {
          ...base,
          awsSources: simulatedAwsUsageSources(dir, serviceAccountId),
          azureSources: simulatedAzureUsageSources(dir, 'unused-client'),
          ...syncExportReaders,
          partLimits: { maxRowsPerPart: 1500 },
          syncRuns: crashingRuns(createSyncRunRepository(table), faults),
          syncQueue: { send: async (messages) => void pending.push(...messages) },
        };
        pending.push({ kind: 'sync', orgId, provider: 'aws', runId: randomIds.uuid() });
        const deliver = async (index: number) => {
          const [message] = pending.splice(index, 1);
          if (!message) return;
          try {
            await handleUsageSyncMessage(ctx, message);
          } catch (error) {
            if (!(error instanceof Crash)) throw error;
            pending.push(message); // not deleted: SQS delivers it again
            now += (FINISH_CLAIM_SECONDS + 1) * 1000; // after the visibility timeout
          }
        };

        // Act: the history, then the queue drained with crashes off
        for (const step of history) {
          if (pending.length === 0) break;
          const index = step.pick % pending.length;
          if (step.kind === 'duplicate') pending.push(pending[index] as UsageSyncMessage);
          else {
            faults.crashNext = step.kind === 'crash' ? step.at : null;
            await deliver(index);
          }
        }
        faults.crashNext = null;
        for (let steps = 0; pending.length > 0; steps++) {
          if (steps > 500) throw new Error('the queue does not drain');
          await deliver(0);
        }

        // Assess: 720 hours of the web and database instances, 12 a day of the Windows one
        // (test/support/export-files.ts): 720, 720 and 30 x 12 = 360, each counted once.
        const usage = await base.repos.usage.loadUsage(orgId, 'aws', { start: june, hours: 720 });
        expect(
          usage
            .map(({ resourceId, usage: hours }) => [resourceId, hours.reduce((sum, units) => sum + units, 0)])
            .sort(),
        ).toEqual([
          ['arn:aws:rds:us-east-1:111111111111:db:orders', 720],
          ['i-0web00000000001', 720],
          ['i-0win00000000002', 360],
        ]);
        const state = await base.repos.usageSyncStates.get(orgId, 'aws');
        expect(state?.outcome).toEqual({ status: 'succeeded' });
        // Every row of both files, once: 6 lines an hour and 3 others (export-files.ts).
        expect(state?.rows).toBe(6 * 720 + 3);
      }),
      { numRuns: RUNS },
    );
  });
});
