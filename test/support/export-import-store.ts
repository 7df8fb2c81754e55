/**
 * A dynalite store of a test file's own, into which billing export files are imported as the
 * admin CLI imports them (a written file, read by readExport, through importUsageExport), with
 * plans computed in the process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { importUsageExport } from '../../shared/app/import-usage';
import { createOrg } from '../../shared/app/operator';
import { computingPlansHere } from '../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../shared/app/ports';
import { fileExportSource } from '../../shared/exports/file-export-source';
import { readExport } from '../../shared/exports/read-export';
import { randomIds, systemClock } from '../../shared/runtime/app-context';
import { startTestTable, type TestTable } from './dynalite';

export interface ExportImportStore {
  readonly ctx: WithPlanComputation<AppContext>;
  /** The dynalite table under `ctx`'s repositories. */
  readonly table: TestTable;
  /** A new org of its own. */
  newOrg(): Promise<string>;
  /** Writes `bytes` as a file named `name` and imports it into the org. */
  importFile(orgId: string, name: string, bytes: Uint8Array | string): ReturnType<typeof importUsageExport>;
}

/** Starts the store before the tests of the describe block it is called in, and stops it after them. */
export function useExportImportStore(): ExportImportStore {
  let table: TestTable | undefined;
  let ctx: WithPlanComputation<AppContext> | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    table = await startTestTable();
    ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
    dir = await mkdtemp(join(tmpdir(), 'export-import-store-'));
  });
  afterAll(async () => {
    await table?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const started = () => {
    if (!ctx || !dir) throw new Error('the store is started by beforeAll: use it inside a test');
    return { ctx, dir };
  };
  return {
    get ctx() {
      return started().ctx;
    },
    get table() {
      if (!table) throw new Error('the store is started by beforeAll: use it inside a test');
      return table;
    },
    async newOrg() {
      return (await createOrg(started().ctx, `Exporter ${randomIds.uuid()}`, null)).id;
    },
    async importFile(orgId, name, bytes) {
      const path = join(started().dir, name);
      await writeFile(path, bytes);
      const source = await fileExportSource(path);
      try {
        const rows = await readExport(source);
        if (rows.format === 'usage-csv') throw new Error(`${name} read as the usage CSV`);
        return await importUsageExport(started().ctx, { orgId, rows });
      } finally {
        await source.close();
      }
    },
  };
}
