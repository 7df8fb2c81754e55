import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { CsvImportError } from '../../../shared/domain/csv/csv-import-error';
import { createUsageCsvParser, type ParsedUsage } from '../../../shared/domain/usage/usage-csv';
import { monthStartHour } from '../../../shared/domain/usage/usage-months';
import { recordsOfLines } from '../../support/csv-records';

const header =
  'timestamp,provider,account_id,region,service,resource_id,instance_type,operating_system,tenancy,usage_type,units,ondemand_price';

/** A row of an m5.large in us-east-1 (catalog price 0.096/h), with `changes` by column. */
function row(changes: Record<string, string> = {}): string {
  const values: Record<string, string> = {
    timestamp: '2026-06-01T00:00:00Z',
    provider: 'aws',
    account_id: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    resource_id: 'i-0a',
    instance_type: 'm5.large',
    operating_system: 'Linux',
    tenancy: 'Shared',
    usage_type: 'running',
    units: '1',
    ondemand_price: '',
    ...changes,
  };
  return header
    .split(',')
    .map((column) => values[column])
    .join(',');
}

/** When the imports of these tests run: after every hour their rows name. */
const importedAt = new Date('2026-08-01T12:30:00Z');

function parse(lines: string[], at = importedAt): ParsedUsage {
  const parser = createUsageCsvParser(loadCatalog(), at);
  for (const record of recordsOfLines(lines)) parser.push(record);
  return parser.finish();
}

function errorsOf(lines: string[], at = importedAt): string[] {
  try {
    parse(lines, at);
  } catch (error) {
    if (error instanceof CsvImportError) return error.errors.map((e) => `line ${e.line}: ${e.message}`);
    throw error;
  }
  throw new Error('the file was accepted');
}

const june = monthStartHour('2026-06');

describe('usage CSV', () => {
  it('reads a resource’s hours into its months, with the catalog price when the price is empty', () => {
    // Act
    const parsed = parse([
      header,
      row({ timestamp: '2026-06-01T00:00:00Z', units: '1' }),
      row({ timestamp: '2026-06-01T02:00:00Z', units: '0.5' }),
      row({ timestamp: '2026-06-30T23:00:00Z', units: '2' }),
      row({ timestamp: '2026-07-01T00:00:00Z', units: '3' }),
    ]);

    // Assess
    expect(parsed.rows).toBe(4);
    expect(parsed.providers).toHaveLength(1);
    const [aws] = parsed.providers;
    expect(aws?.provider).toBe('aws');
    expect(aws?.rows).toBe(4);
    expect(aws?.covered).toEqual({ firstHour: june, lastHour: june + 720 });
    const [series] = aws?.series ?? [];
    expect(series?.resource).toEqual({
      resourceId: 'i-0a',
      provider: 'aws',
      accountId: '111111111111',
      region: 'us-east-1',
      service: 'AmazonEC2',
      instanceType: 'm5.large',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
      usageType: 'running',
      usageUnit: 'Hrs',
      ondemandPrice: 0.096,
    });
    const juneValues = series?.months.get('2026-06');
    expect(juneValues).toHaveLength(720);
    expect([juneValues?.[0], juneValues?.[1], juneValues?.[2], juneValues?.[719]]).toEqual([1, 0, 0.5, 2]);
    expect(series?.months.get('2026-07')?.slice(0, 2)).toEqual(new Float64Array([3, 0]));
  });

  it('keeps providers apart, each with its own covered hours, and takes a given price over the catalog', () => {
    // Act
    const parsed = parse([
      header,
      row({
        provider: 'gcp',
        resource_id: 'vm-1',
        region: 'us-central1',
        instance_type: 'n2-standard-8',
        ondemand_price: '0.4',
        timestamp: '2026-06-02T05:00:00Z',
      }),
      row({ ondemand_price: '0.1', timestamp: '2026-06-01T03:00:00Z' }),
      row({
        provider: 'gcp',
        resource_id: 'vm-1',
        region: 'us-central1',
        instance_type: 'n2-standard-8',
        ondemand_price: '0.4',
        timestamp: '2026-06-02T07:00:00Z',
      }),
    ]);

    // Assess
    expect(
      parsed.providers.map((p) => [
        p.provider,
        p.rows,
        p.covered.firstHour - june,
        p.covered.lastHour - june,
      ]),
    ).toEqual([
      ['aws', 1, 3, 3],
      ['gcp', 2, 29, 31],
    ]);
    expect(parsed.providers[0]?.series[0]?.resource.ondemandPrice).toBe(0.1);
  });

  it('reads quoted fields and CRLF line ends', () => {
    // Act
    const parsed = parse([
      `${header}\r`,
      '2026-06-01T00:00:00Z,azure,sub-1,eastus,Virtual Machines,"/subscriptions/sub-1/vm,""a""",Standard_D4s_v5,Linux,Shared,running,1,0.2\r',
    ]);

    // Assess
    const resource = parsed.providers[0]?.series[0]?.resource;
    expect(resource?.resourceId).toBe('/subscriptions/sub-1/vm,"a"');
    expect(resource?.service).toBe('Virtual Machines');
    expect(resource?.ondemandPrice).toBe(0.2);
  });

  it('reports each bad value with its line number', () => {
    expect(
      errorsOf([
        header,
        row({ timestamp: '2026-06-01T00:30:00Z' }),
        row({ timestamp: '2026-06-01 00:00' }),
        row({ provider: 'oracle' }),
        row({ usage_type: 'hours' }),
        row({ units: '-1' }),
        row({ units: 'one' }),
        row({ ondemand_price: '0' }),
        row({ resource_id: 'i#1' }),
        row({ resource_id: '' }),
        row({ resource_id: 'x'.repeat(1001) }),
      ]),
    ).toEqual([
      'line 2: timestamp must be an ISO 8601 UTC hour start, e.g. 2026-06-01T13:00:00Z; got 2026-06-01T00:30:00Z',
      'line 3: timestamp must be an ISO 8601 UTC hour start, e.g. 2026-06-01T13:00:00Z; got 2026-06-01 00:00',
      'line 4: provider must be one of aws, azure, gcp; got oracle',
      'line 5: usage_type must be one of running, resource, requests, gb_seconds, gb_hours, cpu_hours, cpu_utilization, os_hours, units_per_month, gb_per_month, provisioned_concurrency_gb_seconds, provisioned_duration_gb_seconds, unknown; got hours',
      'line 6: units must be a number >= 0; got -1',
      'line 7: units must be a number >= 0; got one',
      'line 8: ondemand_price must be empty or a number > 0; got 0',
      'line 9: resource_id must not contain #',
      'line 10: resource_id is required',
      'line 11: resource_id must be at most 1000 bytes long',
    ]);
  });

  it('refuses rows after the import time plus one hour, by line, and accepts the hour before that bound', () => {
    // Prepare: imported at 12:30, so 13:00 (skew of one hour: at most 13:30) is the last hour accepted.
    const lines = [
      header,
      row({ resource_id: 'i-1', timestamp: '2026-08-01T13:00:00Z' }),
      row({ resource_id: 'i-2', timestamp: '2026-08-01T14:00:00Z' }),
      row({ resource_id: 'i-3', timestamp: '2062-08-01T00:00:00Z' }),
      row({ resource_id: 'i-4', timestamp: '2026-08-01T15:00:00+02:00' }),
    ];

    // Act
    const errors = errorsOf(lines);
    const accepted = parse([header, lines[1] as string, lines[4] as string]);

    // Assess
    expect(errors).toEqual([
      "line 3: timestamp 2026-08-01T14:00:00Z is in the future: rows may be at most 1 hour after the import's time, 2026-08-01T12:30:00Z",
      "line 4: timestamp 2062-08-01T00:00:00Z is in the future: rows may be at most 1 hour after the import's time, 2026-08-01T12:30:00Z",
    ]);
    expect(accepted.providers[0]?.covered.lastHour).toBe(Date.parse('2026-08-01T13:00:00Z') / 3_600_000);
  });

  it('reports every problem of one row', () => {
    expect(errorsOf([header, row({ provider: 'x', units: '', region: '' })])).toEqual([
      'line 2: region is required',
      'line 2: units is required',
    ]);
    expect(errorsOf([header, row({ provider: 'x', units: '-2' })])).toEqual([
      'line 2: provider must be one of aws, azure, gcp; got x',
      'line 2: units must be a number >= 0; got -2',
    ]);
  });

  it('requires a price the catalog does not know, naming the instance', () => {
    expect(
      errorsOf([
        header,
        row({ instance_type: 'm5.huge' }),
        row({ resource_id: 'vol-1', usage_type: 'gb_per_month', instance_type: '' }),
        row({
          resource_id: 'vol-2',
          usage_type: 'gb_per_month',
          instance_type: '',
          ondemand_price: '0.0001',
        }),
      ]),
    ).toEqual([
      'line 2: ondemand_price is empty and the catalog has no on-demand price for aws us-east-1 m5.huge Linux Shared',
      'line 3: ondemand_price is required for usage_type gb_per_month: the catalog prices instance-hours (usage_type running) only',
    ]);
  });

  it('rejects the same resource and hour twice, whatever the offset spelling', () => {
    expect(
      errorsOf([
        header,
        row({ timestamp: '2026-06-01T05:00:00Z' }),
        row({ timestamp: '2026-06-01T06:00:00Z' }),
        row({ timestamp: '2026-06-01T07:00:00+02:00' }),
      ]),
    ).toEqual(['line 4: resource i-0a has a row for 2026-06-01T05:00:00Z already']);
  });

  it('rejects a resource described differently on two rows, naming the first row', () => {
    expect(
      errorsOf([
        header,
        row({ timestamp: '2026-06-01T05:00:00Z' }),
        row({ timestamp: '2026-06-01T06:00:00Z', instance_type: 'm5.xlarge', account_id: '222222222222' }),
        row({ timestamp: '2026-06-01T07:00:00Z', ondemand_price: '0.2' }),
        row({ timestamp: '2026-06-01T08:00:00Z', ondemand_price: '0.096' }),
      ]),
    ).toEqual([
      "line 3: account_id of resource i-0a is '222222222222' here but '111111111111' on line 2",
      "line 3: instance_type of resource i-0a is 'm5.xlarge' here but 'm5.large' on line 2",
      'line 4: ondemand_price of resource i-0a is 0.2 here but 0.096 on line 2 (one price per resource)',
    ]);
  });

  it('rejects a file with bad rows even when most rows are good', () => {
    // Prepare
    const lines = [
      header,
      row({ timestamp: '2026-06-01T00:00:00Z' }),
      row({ timestamp: '2026-06-01T01:00:00Z', units: 'x' }),
    ];

    // Act
    const act = () => parse(lines);

    // Assess
    expect(act).toThrow(CsvImportError);
    expect(act).toThrow('The file has 1 error; nothing was imported');
  });
});

describe('usage CSV: deployment_option', () => {
  const withDeployment = `${header},deployment_option`;
  const databaseRow = (deployment: string, changes: Record<string, string> = {}) =>
    `${row({
      service: 'AmazonRDS',
      resource_id: 'db-1',
      instance_type: 'db.m5.large',
      operating_system: 'MySQL',
      ondemand_price: '0.342',
      ...changes,
    })},${deployment}`;

  it('records a Multi-AZ database, and leaves Single-AZ (the default) out as files without the column do', () => {
    const parsed = parse([
      withDeployment,
      databaseRow('Multi-AZ'),
      databaseRow('Single-AZ', { resource_id: 'db-2', ondemand_price: '0.171' }),
      databaseRow('', { resource_id: 'db-3', ondemand_price: '0.171' }),
    ]);

    const resources = parsed.providers[0]?.series.map((series) => series.resource) ?? [];
    expect(resources.map((resource) => [resource.resourceId, resource.deploymentOption])).toEqual([
      ['db-1', 'Multi-AZ'],
      ['db-2', undefined],
      ['db-3', undefined],
    ]);
    expect(resources[1]).not.toHaveProperty('deploymentOption');
  });

  it('names the line and column of a bad deployment, and of one that changes between rows', () => {
    expect(
      errorsOf([
        withDeployment,
        databaseRow('Multi-AZ'),
        databaseRow('', { timestamp: '2026-06-01T01:00:00Z' }),
        databaseRow('multi-az', { resource_id: 'db-2' }),
        `${row({ resource_id: 'i-1' })},Multi-AZ`,
      ]),
    ).toEqual([
      "line 3: deployment_option of resource db-1 is 'Single-AZ' here but 'Multi-AZ' on line 2",
      'line 4: deployment_option must be empty or one of Single-AZ, Multi-AZ; got multi-az',
      'line 5: deployment_option Multi-AZ is for databases (service AmazonRDS); got service AmazonEC2',
    ]);
  });
});
