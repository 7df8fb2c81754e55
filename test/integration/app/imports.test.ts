import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCommitments } from '../../../shared/app/import-commitments';
import type { ImportProgress } from '../../../shared/app/import-files';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import type { AppContext } from '../../../shared/app/ports';
import { CsvImportError } from '../../../shared/domain/csv/csv-import-error';
import { NotFoundError } from '../../../shared/domain/errors';
import { planInputsUnchanged } from '../../../shared/domain/usage/usage-state';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { recordsOf as fileRecords } from '../../support/csv-records';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;
let ctx: AppContext;

beforeAll(async () => {
  table = await startTestTable();
  ctx = { repos: table.store, clock: systemClock, ids: randomIds };
});

afterAll(async () => {
  await table.close();
});

const usageHeader =
  'timestamp,provider,account_id,region,service,resource_id,instance_type,operating_system,tenancy,usage_type,units,ondemand_price';
const commitmentHeader =
  'provider,account_id,region,contract_type,instance_type,quantity,hourly_commitment,upfront_cost,recurring_cost,start,end,lockin_end';

function recordsOf(...lines: string[]) {
  return fileRecords(lines);
}

function ec2Row(timestamp: string, resourceId: string, units: number | string): string {
  return `${timestamp},aws,111111111111,us-east-1,AmazonEC2,${resourceId},m5.large,Linux,Shared,running,${units},`;
}

function gceRow(timestamp: string, resourceId: string, units: number): string {
  return `${timestamp},gcp,proj-1,us-central1,Compute Engine,${resourceId},n2-standard-8,Linux,Shared,running,${units},0.38`;
}

const riRow =
  'aws,111111111111,us-east-1,standard_ris,m5.large,2,0,0,0.062,2026-01-01T00:00:00Z,2027-01-01T00:00:00Z,';
const planRow = 'aws,111111111111,,compute_plans,,0,1.5,0,1.5,2026-03-01,2027-03-01,';
const azureRow = 'azure,sub-1,eastus,vm,Standard_D4s_v5,1,0,0,0.12,2026-01-01,2027-01-01,';

async function newOrg(): Promise<string> {
  return (await createOrg(ctx, `Importer ${randomIds.uuid()}`, null)).id;
}

describe('importing usage', () => {
  it('stores each provider’s usage and answers what it stored', async () => {
    // Prepare
    const orgId = await newOrg();

    // Act
    const summary = await importUsage(ctx, {
      orgId,
      records: recordsOf(
        usageHeader,
        ec2Row('2026-06-01T00:00:00Z', 'i-1', 1),
        ec2Row('2026-06-01T01:00:00Z', 'i-1', 0.5),
        ec2Row('2026-06-01T01:00:00Z', 'i-2', 1),
        gceRow('2026-06-03T00:00:00Z', 'vm-1', 2),
        '',
      ),
    });

    // Assess
    expect(summary).toEqual({
      orgId,
      rows: 4,
      providers: [
        {
          provider: 'aws',
          rows: 3,
          resources: 2,
          firstHour: '2026-06-01T00:00:00Z',
          lastHour: '2026-06-01T01:00:00Z',
          hours: 2,
          usageVersion: 1,
          changed: true,
        },
        {
          provider: 'gcp',
          rows: 1,
          resources: 1,
          firstHour: '2026-06-03T00:00:00Z',
          lastHour: '2026-06-03T00:00:00Z',
          hours: 1,
          usageVersion: 1,
          changed: true,
        },
      ],
    });
    const aws = await ctx.repos.usage.loadUsage(orgId, 'aws', { start: '2026-06-01T00:00:00Z', hours: 3 });
    expect(aws.map((stream) => [stream.resourceId, stream.ondemandPrice, [...stream.usage]])).toEqual([
      ['i-1', 0.096, [1, 0.5, 0]],
      ['i-2', 0.096, [0, 1, 0]],
    ]);
    expect(await ctx.repos.usage.listProvidersWithUsage(orgId)).toEqual(['aws', 'gcp']);
  });

  it('writes nothing of a file with one bad row, and reports the row', async () => {
    // Prepare
    const orgId = await newOrg();

    // Act
    const imported = importUsage(ctx, {
      orgId,
      records: recordsOf(
        usageHeader,
        gceRow('2026-06-03T00:00:00Z', 'vm-1', 2),
        ec2Row('2026-06-01T00:00:00Z', 'i-1', 1),
        ec2Row('2026-06-01T01:00:00Z', 'i-1', -1),
      ),
    });

    // Assess
    await expect(imported).rejects.toBeInstanceOf(CsvImportError);
    await expect(imported).rejects.toMatchObject({
      errorCount: 1,
      errors: [{ line: 4, message: 'units must be a number >= 0; got -1' }],
    });
    expect(await ctx.repos.usage.usageState(orgId, 'gcp')).toBeNull();
    expect(await ctx.repos.usage.usageState(orgId, 'aws')).toBeNull();
    const window = { start: '2026-06-01T00:00:00Z', hours: 72 };
    expect(await ctx.repos.usage.loadUsage(orgId, 'gcp', window)).toEqual([]);
    expect(await ctx.repos.usage.loadUsage(orgId, 'aws', window)).toEqual([]);
  });

  it('makes plans of the earlier usage stale', async () => {
    // Prepare
    const orgId = await newOrg();
    const lines = (units: number) => recordsOf(usageHeader, ec2Row('2026-06-01T00:00:00Z', 'i-1', units));
    const first = await importUsage(ctx, { orgId, records: lines(1) });
    const planVersion = first.providers[0]?.usageVersion ?? 0;

    // Act: the same hour with other units.
    const second = await importUsage(ctx, { orgId, records: lines(2) });

    // Assess
    const state = await ctx.repos.usage.usageState(orgId, 'aws');
    expect(second.providers[0]?.usageVersion).toBe(planVersion + 1);
    expect(planInputsUnchanged(state, planVersion, new Date())).toBe(false);
    expect(planInputsUnchanged(state, planVersion + 1, new Date())).toBe(true);
  });

  it('reports progress while reading a large file, before writing each month and computing plans', async () => {
    // Prepare
    const orgId = await newOrg();
    const start = Date.parse('2026-06-01T00:00:00Z');
    async function* manyRows() {
      yield usageHeader;
      for (let row = 0; row < 100_001; row++) {
        const hour = new Date(start + (row % 720) * 3_600_000).toISOString();
        yield ec2Row(hour, `i-${Math.floor(row / 720)}`, 1);
      }
    }
    const progress: ImportProgress[] = [];

    // Act
    const summary = await importUsage(ctx, {
      orgId,
      records: fileRecords(manyRows()),
      onProgress: (p) => progress.push(p),
    });

    // Assess
    expect(summary.providers[0]).toMatchObject({ rows: 100_001, resources: 139, hours: 720 });
    expect(progress).toEqual([
      { stage: 'reading', rows: 100_000 },
      { stage: 'writing', provider: 'aws', month: '2026-06' },
      { stage: 'planning', provider: 'aws' },
    ]);
  });

  it('refuses an unknown org before reading the file', async () => {
    // Prepare
    async function* unreadable(): AsyncGenerator<string> {
      yield* [];
      throw new Error('the file was read');
    }

    // Act
    const imported = importUsage(ctx, { orgId: randomIds.uuid(), records: fileRecords(unreadable()) });

    // Assess
    await expect(imported).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('importing commitments', () => {
  it('replaces the commitments of the providers the file names, keeping the others', async () => {
    // Prepare
    const orgId = await newOrg();
    await importCommitments(ctx, { orgId, records: recordsOf(commitmentHeader, riRow, azureRow) });

    // Act
    const summary = await importCommitments(ctx, { orgId, records: recordsOf(commitmentHeader, planRow) });

    // Assess
    expect(summary).toEqual({
      orgId,
      rows: 1,
      providers: [{ provider: 'aws', commitments: 1, usageVersion: 2 }],
    });
    expect(await ctx.repos.commitments.listCommitments(orgId, 'aws')).toEqual([
      expect.objectContaining({ contractType: 'compute_plans', hourlyCommitment: 1.5, instanceType: null }),
    ]);
    expect(await ctx.repos.commitments.listCommitments(orgId, 'azure')).toEqual([
      expect.objectContaining({ contractType: 'vm', quantity: 1 }),
    ]);
    expect(await ctx.repos.usage.usageState(orgId, 'aws')).toMatchObject({ usageVersion: 2, commitments: 1 });
    expect(await ctx.repos.usage.listProvidersWithUsage(orgId)).toEqual([]);
  });

  it('keeps the commitments’ ids when the same file is imported again', async () => {
    // Prepare
    const orgId = await newOrg();
    await importCommitments(ctx, { orgId, records: recordsOf(commitmentHeader, riRow, riRow, planRow) });
    const before = await ctx.repos.commitments.listCommitments(orgId);

    // Act
    await importCommitments(ctx, { orgId, records: recordsOf(commitmentHeader, riRow, riRow, planRow) });

    // Assess
    const after = await ctx.repos.commitments.listCommitments(orgId);
    expect(after).toHaveLength(3);
    expect(after).toEqual(before);
  });

  it('writes nothing of a file with one bad row', async () => {
    // Prepare
    const orgId = await newOrg();
    await importCommitments(ctx, { orgId, records: recordsOf(commitmentHeader, riRow) });
    const before = await ctx.repos.commitments.listCommitments(orgId);

    // Act
    const imported = importCommitments(ctx, {
      orgId,
      records: recordsOf(commitmentHeader, planRow, azureRow.replace('2027-01-01', '2025-01-01')),
    });

    // Assess
    await expect(imported).rejects.toMatchObject({
      errors: [{ line: 3, message: 'start must be before end' }],
    });
    expect(await ctx.repos.commitments.listCommitments(orgId)).toEqual(before);
    expect(await ctx.repos.usage.usageState(orgId, 'aws')).toMatchObject({ usageVersion: 1 });
    expect(await ctx.repos.usage.usageState(orgId, 'azure')).toBeNull();
  });
});
