import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useAdminOrgStore } from '../support/admin-org-store';

const sample = join(import.meta.dirname, '../fixtures/exports/focus-1.0-sample.csv');

describe('admin CLI imports of billing exports', () => {
  const store = useAdminOrgStore('admin-import-exports-', 'Exporting Co');

  it('imports the FinOps Foundation FOCUS 1.0 sample, accounting for every one of its rows', async () => {
    // Prepare: the file's records, counted by another CSV reading than the importer's.
    const records = parse(await readFile(sample), { columns: true }) as Record<string, string>[];

    // Act
    const run = await store.run('import-usage', '--org', store.orgId, '--file', sample);

    // Assess
    expect(run.exitCode).toBe(0);
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
    const run = await store.run('import-usage', '--org', store.orgId, '--file', sample, '--format', 'cur');

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'The file is not cur: it has no column lineItem/LineItemType or line_item_line_item_type, lineItem/UsageStartDate or line_item_usage_start_date, lineItem/UsageAmount or line_item_usage_amount',
    );
  });
});
