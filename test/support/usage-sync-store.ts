/**
 * A dynalite store and a simulated cloud of a test file's own, for the usage sync
 * (docs/usage-sync.md): orgs whose AWS account is connected, files delivered into its export.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { simulatedAzureUsageSources } from '../../local/simulated-azure-usage-sources';
import { deliverSimulatedAwsFile, simulatedAwsUsageSources } from '../../local/simulated-usage-sources';
import { computingPlansHere } from '../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../shared/app/ports';
import type { UsageSyncContext } from '../../shared/app/usage-sync';
import { syncExportReaders } from '../../shared/exports/read-export';
import { randomIds, systemClock } from '../../shared/runtime/app-context';
import { connectedAwsOrg } from './connected-aws-org';
import { startTestTable, type TestTable } from './dynalite';

const serviceAccountId = '999988887777';
const azureClientId = '00000000-0000-4000-8000-00000000c0de';

export interface UsageSyncStore {
  readonly ctx: WithPlanComputation<AppContext>;
  readonly syncCtx: UsageSyncContext;
  /** The simulated cloud's directory. */
  readonly dir: string;
  /** A new org with an AWS account of its own connected. */
  connectedOrg(): Promise<{ orgId: string; accountId: string }>;
  /** Delivers `bytes` into the account's export as the period's file named `name`. */
  deliver(
    accountId: string,
    name: string,
    bytes: Uint8Array | string,
    period: string,
  ): Promise<{ key: string }>;
}

/** Starts the store before the tests of the describe block it is called in, and stops it after them. */
export function useUsageSyncStore(firstAccount: number): UsageSyncStore {
  let table: TestTable | undefined;
  let started: { ctx: WithPlanComputation<AppContext>; syncCtx: UsageSyncContext; dir: string } | undefined;
  let accountNumber = firstAccount;
  beforeAll(async () => {
    table = await startTestTable();
    const ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
    const dir = await mkdtemp(join(tmpdir(), 'usage-sync-store-'));
    const syncCtx = {
      ...ctx,
      awsSources: simulatedAwsUsageSources(dir, serviceAccountId),
      azureSources: simulatedAzureUsageSources(dir, azureClientId),
      ...syncExportReaders,
    };
    started = { ctx, syncCtx, dir };
  });
  afterAll(async () => {
    await table?.close();
    if (started) await rm(started.dir, { recursive: true, force: true });
  });
  const store = () => {
    if (!started) throw new Error('the store is started by beforeAll: use it inside a test');
    return started;
  };
  return {
    get ctx() {
      return store().ctx;
    },
    get syncCtx() {
      return store().syncCtx;
    },
    get dir() {
      return store().dir;
    },
    async connectedOrg() {
      const accountId = String(accountNumber++);
      const { ctx, dir } = store();
      return {
        orgId: await connectedAwsOrg(ctx, { dir, serviceAccountId }, accountId, new Date()),
        accountId,
      };
    },
    async deliver(accountId, name, bytes, period) {
      const { dir } = store();
      const path = join(dir, name);
      await writeFile(path, bytes);
      return deliverSimulatedAwsFile(dir, accountId, path, period, false);
    },
  };
}
