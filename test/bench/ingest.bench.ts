/**
 * `npm run bench:ingest`: a CUR 2.0 Parquet month read, stored and planned (docs/benchmarks.md,
 * `npm run bench:ingest`). Generates RESOURCES (default 10,000) EC2 instances x 720 hours of
 * instance-hour lines, plus one storage line per ten instances and hour, with hyparquet-writer
 * into a temporary directory, written row group by row group. Then, each in a process of its own
 * so that each peak RSS is its own:
 * - the floor: hyparquet alone reads the same columns of every row group and touches every value;
 * - the import: the export reader, the row mapping and collection, the writes to a dynalite
 *   table and the plan computation (`importUsageExport`), timed by stage.
 * Run: `npm run bench:ingest` (RESOURCES=1000 or HOURS=72 for a quick one; KEEP=1 keeps the file).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { writeCur2Parquet } from '../../local/demo/cur2-parquet';
import { importUsageExport } from '../../shared/app/import-usage';
import { createOrg } from '../../shared/app/operator';
import { computingPlansHere } from '../../shared/app/plan-computation';
import { columnsOf } from '../../shared/domain/usage/exports/export-formats';
import { fileExportSource } from '../../shared/exports/file-export-source';
import { parquetColumnNames } from '../../shared/exports/parquet-export-reader';
import { readExport } from '../../shared/exports/read-export';
import { randomIds, systemClock } from '../../shared/runtime/app-context';
import { startTestTable } from '../support/dynalite';
import type { LineItem } from '../support/export-files';

/** 720 (a month) unless HOURS says otherwise: fewer hours of the full fleet measure its memory sooner. */
const HOURS = Number(process.env.HOURS ?? 720);
const HOUR_MS = 3_600_000;
const START = Date.parse('2026-06-01T00:00:00Z');
const ROWS_PER_GROUP = 100_000;
const types = [
  ['m5.large', 0.096],
  ['m5.xlarge', 0.192],
  ['c5.large', 0.085],
  ['r5.large', 0.126],
] as const;

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** The lines of hour t: one per instance, and a storage line per ten. */
function linesOfHour(t: number, resources: number): LineItem[] {
  const start = START + t * HOUR_MS;
  const items: LineItem[] = [];
  for (let r = 0; r < resources; r++) {
    const [instanceType, rate] = types[r % types.length] as (typeof types)[number];
    items.push({
      type: r % 3 === 0 ? 'DiscountedUsage' : r % 3 === 1 ? 'SavingsPlanCoveredUsage' : 'Usage',
      start,
      productCode: 'AmazonEC2',
      usageType: `USE1-BoxUsage:${instanceType}`,
      operation: 'RunInstances',
      resourceId: `i-${r.toString(16).padStart(17, '0')}`,
      accountId: `1111111111${(r % 20).toString().padStart(2, '0')}`,
      region: 'us-east-1',
      instanceType,
      operatingSystem: 'Linux',
      databaseEngine: '',
      // Part of the fleet runs two thirds of the hours.
      amount: r % 5 === 0 && t % 3 === 2 ? 0 : 1,
      rate,
      unit: 'Hrs',
      description: '',
    });
    if (r % 10 === 0) {
      items.push({
        ...(items[items.length - 1] as LineItem),
        type: 'Usage',
        usageType: 'USE1-EBS:VolumeUsage.gp3',
        operation: 'CreateVolume-Gp3',
        resourceId: `vol-${r.toString(16).padStart(17, '0')}`,
        instanceType: '',
        amount: 0.1,
        rate: 0.08,
        unit: 'GB-Mo',
      });
    }
  }
  return items;
}

function* linesOfMonth(resources: number): Generator<LineItem> {
  for (let t = 0; t < HOURS; t++) yield* linesOfHour(t, resources);
}

function generate(path: string, resources: number): void {
  const rows = writeCur2Parquet(path, linesOfMonth(resources), ROWS_PER_GROUP);
  console.log(JSON.stringify({ rows, peak_rss_mb: peakRssMb() }));
}

/** hyparquet alone: the same columns of every row group, every value touched. */
async function floor(path: string): Promise<void> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const present = new Set(parquetColumnNames(metadata));
  const columns = columnsOf('cur2').filter((column) => present.has(column));
  const began = performance.now();
  let rowStart = 0;
  let touched = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    await parquetRead({
      file,
      metadata,
      columns,
      rowStart,
      rowEnd,
      compressors,
      onChunk: ({ columnData }) => {
        for (let index = 0; index < columnData.length; index++) if (columnData[index] != null) touched++;
      },
    });
    rowStart = rowEnd;
  }
  const ms = performance.now() - began;
  console.log(
    JSON.stringify({
      rows: rowStart,
      touched,
      ms,
      rows_per_s: rowStart / (ms / 1000),
      peak_rss_mb: peakRssMb(),
    }),
  );
}

async function ingest(path: string): Promise<void> {
  const table = await startTestTable();
  const ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
  const org = await createOrg(ctx, 'Bench', null);
  const source = await fileExportSource(path);
  const began = performance.now();
  const marks: Record<string, number> = {};
  try {
    const rows = await readExport(source);
    if (rows.format === 'usage-csv') throw new Error('not an export');
    const summary = await importUsageExport(ctx, {
      orgId: org.id,
      rows,
      onProgress: (progress) => {
        if (progress.stage !== 'reading') marks[progress.stage] ??= performance.now() - began;
      },
    });
    const ms = performance.now() - began;
    console.log(
      JSON.stringify({
        rows: summary.rows,
        used_rows: summary.usedRows,
        resources: summary.providers[0]?.resources,
        read_ms: marks.writing,
        store_ms: (marks.planning ?? 0) - (marks.writing ?? 0),
        plan_ms: ms - (marks.planning ?? 0),
        total_ms: ms,
        read_rows_per_s: summary.rows / ((marks.writing ?? ms) / 1000),
        peak_rss_mb: peakRssMb(),
      }),
    );
  } finally {
    await source.close();
    await table.close();
  }
}

/** Runs a stage of this file in a process of its own; answers the JSON line it prints. */
async function stage(name: string, ...args: string[]): Promise<Record<string, number>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--max-old-space-size=4096', import.meta.filename, name, ...args],
    { maxBuffer: 1 << 24 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

async function main(): Promise<void> {
  const [mode, path, resources] = process.argv.slice(2);
  if (mode === 'generate') return generate(path as string, Number(resources));
  if (mode === 'floor') return floor(path as string);
  if (mode === 'ingest') return ingest(path as string);

  const count = Number(process.env.RESOURCES ?? 10_000);
  const dir = await mkdtemp(join(tmpdir(), 'bench-ingest-'));
  const file = join(dir, 'cur2.parquet');
  try {
    let began = performance.now();
    const generated = await stage('generate', file, String(count));
    const generateMs = performance.now() - began;
    console.log(
      `generated ${generated.rows} rows (${count} resources x ${HOURS} hours + storage lines) in ${(generateMs / 1000).toFixed(1)} s, ${((await stat(file)).size / 1e6).toFixed(1)} MB`,
    );
    began = performance.now();
    const floorRun = await stage('floor', file);
    console.log('floor (hyparquet alone):', JSON.stringify(floorRun));
    const ingestRun = await stage('ingest', file);
    console.log('read, store and plan:', JSON.stringify(ingestRun));
    console.log(
      `read / floor: ${((ingestRun.read_ms as number) / (floorRun.ms as number)).toFixed(2)}; peak RSS ${(ingestRun.peak_rss_mb as number).toFixed(0)} MB`,
    );
  } finally {
    if (!process.env.KEEP) await rm(dir, { recursive: true, force: true });
  }
}

await main();
