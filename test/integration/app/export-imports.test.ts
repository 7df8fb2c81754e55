import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { importUsage, importUsageExport } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { Principal } from '../../../shared/domain/principal';
import { fileExportSource } from '../../../shared/exports/file-export-source';
import { readExport } from '../../../shared/exports/read-export';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import {
  cur2GzipCsv,
  fleetLineItems,
  fleetUsageCsv,
  focusCsv,
  legacyCurGzipCsv,
} from '../../support/export-files';
import { cur2Parquet, focusParquet } from '../../support/export-parquet-files';
import { recordsOf } from '../../support/usage-files';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;
let dir: string;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
  dir = await mkdtemp(join(tmpdir(), 'export-imports-'));
});

afterAll(async () => {
  await table.close();
  await rm(dir, { recursive: true, force: true });
});

const june = '2026-06-01T00:00:00Z';
/** 30 days: the plans' lookback. */
const HOURS = 720;
const window = { start: june, hours: HOURS };

async function newOrg(): Promise<{ orgId: string; principal: Principal }> {
  const org = await createOrg(ctx, `Exporter ${randomIds.uuid()}`, null);
  return { orgId: org.id, principal: { kind: 'partner', orgId: org.id, scopes: ['*'] } };
}

/** Imports a written file as the admin CLI does. */
async function importExportFile(orgId: string, name: string, bytes: Uint8Array | string) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const source = await fileExportSource(path);
  try {
    const rows = await readExport(source);
    if (rows.format === 'usage-csv') throw new Error(`${name} read as the usage CSV`);
    return await importUsageExport(ctx, { orgId, rows });
  } finally {
    await source.close();
  }
}

/** What the plans and the stored usage of an org are, without ids and times. */
async function outcome(orgId: string, principal: Principal) {
  const usage = await ctx.repos.usage.loadUsage(orgId, 'aws', window);
  const plans = await listDefaultPlans(ctx, principal, orgId, 'aws');
  return {
    usage: usage
      // The usage CSV records no price source; an export import does (price-sources.test.ts).
      .map(({ usage: hours, ...resource }) => {
        const { priceSource: _, ...described } = resource as typeof resource & { priceSource?: string };
        return { ...described, hours: [...hours] };
      })
      .sort((a, b) => a.resourceId.localeCompare(b.resourceId)),
    plans: plans.map(({ id, org_id, created_at, ...plan }) => plan),
  };
}

describe('importing billing exports', () => {
  const items = fleetLineItems(june, HOURS);
  const files: Record<string, () => Uint8Array | string> = {
    'cur2.parquet': () => cur2Parquet(items),
    'cur2.csv.gz': () => cur2GzipCsv(items),
    'cur.csv.gz': () => legacyCurGzipCsv(items),
    'focus.csv': () => focusCsv(items),
    'focus.parquet': () => focusParquet(items),
  };

  let expected: Awaited<ReturnType<typeof outcome>>;

  beforeAll(async () => {
    const { orgId, principal } = await newOrg();
    await importUsage(ctx, { orgId, records: recordsOf(fleetUsageCsv(june, HOURS)) });
    expected = await outcome(orgId, principal);
  });

  it('has the usage CSV give the fleet something to plan', () => {
    // 3 resources; the Windows one runs 12 hours a day: 30 days x 12 = 360 instance-hours.
    expect(expected.usage.map((resource) => resource.resourceId)).toEqual([
      'arn:aws:rds:us-east-1:111111111111:db:orders',
      'i-0web00000000001',
      'i-0win00000000002',
    ]);
    expect(expected.usage[2]?.hours.reduce((sum, units) => sum + units, 0)).toBe(360);
    expect(expected.plans.length).toBe(3);
    expect(expected.plans[0]?.savings_hourly).toBeGreaterThan(0);
  });

  for (const name of Object.keys(files)) {
    it(`stores the same usage and plans from ${name} as from the usage CSV, counting every other line`, async () => {
      // Prepare
      const { orgId, principal } = await newOrg();
      const bytes = (files[name] as () => Uint8Array | string)();

      // Act
      const summary = await importExportFile(orgId, name, bytes);

      // Assess
      expect(await outcome(orgId, principal)).toEqual(expected);
      // Per hour: the web instance has 1 line on even hours and 2 on odd ones (1.5 a hour), the
      // database 1, the Windows one 12 of 24 hours (0.5): 3 x 720 = 2160 lines; then 3 other lines
      // an hour (storage, spot, transfer) and 3 a file (tax, RI fee, savings plan negation).
      const instanceLines = 1.5 * HOURS + HOURS + 0.5 * HOURS;
      expect(summary.rows).toBe(instanceLines + 3 * HOURS + 3);
      expect(summary.usedRows).toBe(instanceLines);
      expect(summary.skipped.spot).toBe(HOURS);
      expect(summary.skipped.not_instance_hours).toBe(2 * HOURS);
      expect(summary.skipped.not_usage).toBe(3);
      expect(
        summary.providers.map((provider) => [provider.provider, provider.resources, provider.hours]),
      ).toEqual([['aws', 3, HOURS]]);
    });
  }
});

describe('importing a billing export that cannot be read', () => {
  it('fails naming the problem and stores nothing', async () => {
    // Prepare: a gzip CUR 2.0 file cut short half-way.
    const { orgId } = await newOrg();
    const whole = cur2GzipCsv(fleetLineItems(june, 48));

    // Act
    const failed = importExportFile(orgId, 'cut.csv.gz', whole.subarray(0, Math.floor(whole.length / 2)));

    // Assess
    await expect(failed).rejects.toThrow(/The file cannot be read/);
    expect(await ctx.repos.usage.usageState(orgId, 'aws')).toBeNull();
  });
});

describe('importing the FinOps Foundation FOCUS 1.0 sample', () => {
  it('gives AWS plans from its EC2 instance-hours', async () => {
    // Prepare
    const { orgId, principal } = await newOrg();
    const source = await fileExportSource(
      join(import.meta.dirname, '../../fixtures/exports/focus-1.0-sample.csv'),
    );

    // Act
    let summary: Awaited<ReturnType<typeof importUsageExport>>;
    try {
      const rows = await readExport(source);
      if (rows.format === 'usage-csv') throw new Error('read as the usage CSV');
      summary = await importUsageExport(ctx, { orgId, rows });
    } finally {
      await source.close();
    }
    const plans = await listDefaultPlans(ctx, principal, orgId, 'aws');

    // Assess
    expect(summary.providers.map((provider) => provider.provider)).toEqual(['aws']);
    expect(plans.map((plan) => plan.name)).toEqual(['Recommended', 'Balanced', 'High Savings']);
    expect(plans.every((plan) => !plan.is_calculating && plan.total_monthly_before_cost > 0)).toBe(true);
  });
});
