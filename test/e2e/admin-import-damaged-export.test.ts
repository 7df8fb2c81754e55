import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAdminOrgStore } from '../support/admin-org-store';
import { spreadsheetResavedSample } from '../support/focus-sample';

let dir: string;
let path: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'damaged-export-'));
  path = join(dir, 'focus_sample (resaved).csv');
  await writeFile(path, spreadsheetResavedSample());
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('admin import-usage of an export a spreadsheet re-saved', () => {
  const store = useAdminOrgStore('admin-import-damaged-', 'Spreadsheet Co');

  it('answers why no row could be used: each reason, its count and its first row, and a warning', async () => {
    // Prepare: the file as another CSV reader reads it.
    const records = parse(spreadsheetResavedSample(), { columns: true }) as Record<string, string>[];

    // Act
    const run = await store.run('import-usage', '--org', store.orgId, '--file', path);

    // Assess: the dates (`9/26/2024 1:00`) are no timestamps, so no instance-hour is used.
    expect(run.exitCode, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.used_rows).toBe(0);
    expect(summary.providers).toEqual([]);
    expect(summary.skipped.invalid).toBeGreaterThan(0);
    const example = summary.skipped_examples.invalid;
    const record = records[example.row - 1] as Record<string, string>;
    expect(example.values).toContain(`ChargePeriodStart=${record.ChargePeriodStart}`);
    expect(record.ChargePeriodStart).toMatch(/^\d{1,2}\/\d{1,2}\/2024 \d{1,2}:\d\d$/);
    expect(summary.skipped_examples.not_usage.row).toBe(
      records.findIndex((entry) => entry.ChargeCategory !== 'Usage') + 1,
    );
    expect(summary.warning).toContain(`none of the file's ${records.length} rows could be used: `);
    expect(summary.warning).toContain(`invalid ${summary.skipped.invalid} (first: row ${example.row}: `);
    expect(run.stderr).toContain(`warning: ${summary.warning}`);
  });
});
