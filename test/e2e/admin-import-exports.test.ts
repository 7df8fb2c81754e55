import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sample = join(import.meta.dirname, '../fixtures/exports/focus-1.0-sample.csv');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe('admin CLI imports of billing exports', () => {
  let localDir: string;
  let orgId: string;

  /** Runs `npm run admin -- <args>` (the same entry, without npm) on the test's local store. */
  async function admin(...args: string[]): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_DIR: localDir };
    delete env.TABLE_NAME;
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'bin/admin.ts', ...args],
        { env },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  beforeAll(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'admin-import-exports-'));
    orgId = JSON.parse((await admin('create-org', '--name', 'Exporting Co')).stdout).org_id;
  });

  afterAll(async () => {
    await rm(localDir, { recursive: true, force: true });
  });

  it('imports the FinOps Foundation FOCUS 1.0 sample, accounting for every one of its rows', async () => {
    // Prepare: the file's records, counted by another CSV reading than the importer's.
    const records = parse(await readFile(sample), { columns: true }) as Record<string, string>[];

    // Act
    const run = await admin('import-usage', '--org', orgId, '--file', sample);

    // Assess
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('computing aws plans...');
    const summary = JSON.parse(run.stdout);
    expect(summary.format).toBe('focus');
    expect(summary.rows).toBe(records.length);
    const skipped = Object.values(summary.skipped as Record<string, number>).reduce(
      (sum, count) => sum + count,
      0,
    );
    expect(summary.used_rows + skipped).toBe(records.length);
    // Its Microsoft and Oracle rows are no VM instance-hours: the usage is AWS's alone.
    expect(summary.providers.map((provider: { provider: string }) => provider.provider)).toEqual(['aws']);
    expect(summary.providers[0].rows).toBe(summary.used_rows);
    expect(summary.used_rows).toBeGreaterThan(0);
  });

  it('refuses a --format the file is not, naming the missing columns, with exit code 1', async () => {
    // Act
    const run = await admin('import-usage', '--org', orgId, '--file', sample, '--format', 'cur');

    // Assess
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'The file is not cur: it has no column lineItem/LineItemType, lineItem/UsageStartDate, lineItem/UsageAmount',
    );
  });
});
