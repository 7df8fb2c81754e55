import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '../../../shared/domain/engine/shapes/model';
import { ConflictError } from '../../../shared/domain/errors';
import type { ProviderUsage, UsageResource } from '../../../shared/domain/usage/imported-usage';
import { hoursInMonth, monthOfHour, monthStartHour } from '../../../shared/domain/usage/usage-months';
import { usagePartition } from '../../../shared/store/keys';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { m5LargeResource } from '../../support/usage-streams';

const HOUR_MS = 3_600_000;
const hourOf = (iso: string) => Date.parse(iso) / HOUR_MS;

const aResource = (resourceId: string, provider: Provider = 'aws'): UsageResource =>
  m5LargeResource(resourceId, { provider });

/** What the CSV parser answers for a file with these rows (ISO hour -> units per resource). */
function usageOf(
  provider: Provider,
  rows: Record<string, Record<string, number>>,
  resources: Record<string, UsageResource> = {},
): ProviderUsage {
  let firstHour = Number.POSITIVE_INFINITY;
  let lastHour = Number.NEGATIVE_INFINITY;
  let count = 0;
  const series = Object.entries(rows).map(([resourceId, hours]) => {
    const months = new Map<string, Float64Array>();
    for (const [iso, units] of Object.entries(hours)) {
      const hour = hourOf(iso);
      const month = monthOfHour(hour);
      if (!months.has(month)) months.set(month, new Float64Array(hoursInMonth(month)));
      (months.get(month) as Float64Array)[hour - monthStartHour(month)] = units;
      firstHour = Math.min(firstHour, hour);
      lastHour = Math.max(lastHour, hour);
      count += 1;
    }
    return { resource: resources[resourceId] ?? aResource(resourceId, provider), months };
  });
  return { provider, covered: { firstHour, lastHour }, rows: count, series };
}

/** `hours` consecutive hours from `start`, each with `units`. */
function hoursFrom(start: string, hours: number, units: (hour: number) => number): Record<string, number> {
  const first = hourOf(start);
  return Object.fromEntries(
    Array.from({ length: hours }, (_, t) => [new Date((first + t) * HOUR_MS).toISOString(), units(t)]),
  );
}

describe('usage repository', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

  /** Opens an import session on the state as it is stored now; answers its id and usage version. */
  async function openSession(orgId: string, provider: Provider, at = '2026-08-01T00:00:00.000Z') {
    const state = await table.store.usage.usageState(orgId, provider);
    const sessionId = randomUUID();
    const session = { sessionId, startedAt: at, expiresAt: '2026-08-01T00:05:00.000Z', baseVersion: 0 };
    const version = await table.store.usage.openImport(orgId, provider, session, state?.version ?? null);
    if (version === null) throw new Error('the state changed while the session opened');
    return { sessionId, version };
  }

  async function importUsage(orgId: string, usage: ProviderUsage) {
    const { sessionId, version } = await openSession(orgId, usage.provider);
    await table.store.usage.replaceCoveredHours(orgId, usage, version);
    return table.store.usage.finishImport(
      orgId,
      usage.provider,
      sessionId,
      { kind: 'usage', covered: usage.covered, resources: usage.series.length },
      '2026-08-01T00:05:00.000Z',
    );
  }

  async function seriesItems(orgId: string, provider: Provider) {
    const { Items } = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': usagePartition(orgId, provider) },
      }),
    );
    return Items ?? [];
  }

  it('reads back a series across a month boundary, with zeros around it, from one item per month', async () => {
    // Prepare
    const orgId = randomUUID();
    const usage = usageOf('aws', {
      'i-1': {
        '2026-06-30T22:00:00Z': 1,
        '2026-06-30T23:00:00Z': 0.25,
        '2026-07-01T00:00:00Z': 2,
        '2026-07-01T01:00:00Z': 1e-9,
      },
    });

    // Act
    await importUsage(orgId, usage);
    const streams = await table.store.usage.loadUsage(orgId, 'aws', {
      start: '2026-06-30T20:00:00Z',
      hours: 8,
    });

    // Assess
    expect(streams).toHaveLength(1);
    const [stream] = streams;
    expect({ ...stream, usage: undefined }).toEqual({ ...aResource('i-1'), usage: undefined });
    expect([...(stream?.usage ?? [])]).toEqual([0, 0, 1, 0.25, 2, 1e-9, 0, 0]);
    const items = await seriesItems(orgId, 'aws');
    expect(items.map((item) => [item.SK, item.type, (item.hours as Uint8Array).byteLength])).toEqual([
      ['2026-06#i-1', 'usage_series', 720 * 8],
      ['2026-07#i-1', 'usage_series', 744 * 8],
    ]);
  });

  it('answers only resources with usage in the window, ordered by resource id', async () => {
    // Prepare
    const orgId = randomUUID();
    await importUsage(
      orgId,
      usageOf('aws', {
        'i-b': { '2026-06-02T00:00:00Z': 1 },
        'i-a': { '2026-06-02T01:00:00Z': 1 },
        'i-late': { '2026-07-15T00:00:00Z': 1 },
      }),
    );

    // Act
    const streams = await table.store.usage.loadUsage(orgId, 'aws', {
      start: '2026-06-01T00:00:00Z',
      hours: 720,
    });

    // Assess
    expect(streams.map((stream) => stream.resourceId)).toEqual(['i-a', 'i-b']);
    expect(
      await table.store.usage.loadUsage(orgId, 'azure', { start: '2026-06-01T00:00:00Z', hours: 24 }),
    ).toEqual([]);
  });

  it('replaces every resource’s usage on the covered hours only, zero for resources the import does not name', async () => {
    // Prepare
    const orgId = randomUUID();
    await importUsage(
      orgId,
      usageOf('aws', {
        'i-a': hoursFrom('2026-06-01T00:00:00Z', 72, () => 1),
        'i-b': hoursFrom('2026-06-01T00:00:00Z', 72, () => 2),
      }),
    );

    // Act
    await importUsage(orgId, usageOf('aws', { 'i-a': hoursFrom('2026-06-02T00:00:00Z', 24, (t) => t / 10) }));

    // Assess
    const [a, b] = await table.store.usage.loadUsage(orgId, 'aws', {
      start: '2026-06-01T00:00:00Z',
      hours: 72,
    });
    expect([...(a?.usage ?? [])]).toEqual([
      ...Array(24).fill(1),
      ...Array.from({ length: 24 }, (_, t) => t / 10),
      ...Array(24).fill(1),
    ]);
    expect([...(b?.usage ?? [])]).toEqual([...Array(24).fill(2), ...Array(24).fill(0), ...Array(24).fill(2)]);
  });

  it('clears whole months of resources a later import leaves out, and takes the resource’s new description', async () => {
    // Prepare
    const orgId = randomUUID();
    await importUsage(
      orgId,
      usageOf('aws', {
        gone: hoursFrom('2026-06-01T00:00:00Z', 24, () => 1),
        kept: hoursFrom('2026-06-01T00:00:00Z', 24, () => 1),
      }),
    );
    const resized = { ...aResource('kept'), instanceType: 'm5.xlarge', ondemandPrice: 0.192 };

    // Act
    await importUsage(
      orgId,
      usageOf('aws', { kept: { '2026-05-31T00:00:00Z': 1, '2026-06-30T23:00:00Z': 3 } }, { kept: resized }),
    );

    // Assess
    const items = await seriesItems(orgId, 'aws');
    expect(items.map((item) => item.SK)).toEqual(['2026-05#kept', '2026-06#kept']);
    const [kept] = await table.store.usage.loadUsage(orgId, 'aws', {
      start: '2026-06-01T00:00:00Z',
      hours: 720,
    });
    expect(kept).toMatchObject({ instanceType: 'm5.xlarge', ondemandPrice: 0.192 });
    expect(kept?.usage.reduce((sum, units) => sum + units, 0)).toBe(3);
  });

  it('reads back a database’s Multi-AZ deployment, and its Single-AZ one after a later import', async () => {
    // Prepare
    const orgId = randomUUID();
    const database: UsageResource = {
      ...aResource('db-1'),
      service: 'AmazonRDS',
      instanceType: 'db.m5.large',
      operatingSystem: 'MySQL',
      ondemandPrice: 0.342,
      deploymentOption: 'Multi-AZ',
    };
    const window = { start: '2026-06-01T00:00:00Z', hours: 24 };
    const { deploymentOption: _, ...singleAz } = { ...database, ondemandPrice: 0.171 };

    // Act
    await importUsage(
      orgId,
      usageOf('aws', { 'db-1': hoursFrom(window.start, 24, () => 1) }, { 'db-1': database }),
    );
    const [multi] = await table.store.usage.loadUsage(orgId, 'aws', window);
    await importUsage(
      orgId,
      usageOf('aws', { 'db-1': hoursFrom(window.start, 24, () => 1) }, { 'db-1': singleAz }),
    );
    const [single] = await table.store.usage.loadUsage(orgId, 'aws', window);

    // Assess
    expect({ ...multi, usage: undefined }).toEqual({ ...database, usage: undefined });
    expect({ ...single, usage: undefined }).toEqual({ ...singleAz, usage: undefined });
    expect(single).not.toHaveProperty('deploymentOption');
  });

  it('leaves unchanged series as they are when the same file is imported again', async () => {
    // Prepare
    const orgId = randomUUID();
    const usage = usageOf('aws', { 'i-1': hoursFrom('2026-06-01T00:00:00Z', 48, (t) => t % 3) });
    await importUsage(orgId, usage);

    // Act
    const state = await importUsage(orgId, usage);

    // Assess
    expect(state.usageVersion).toBe(2);
    const items = await seriesItems(orgId, 'aws');
    expect(items.map((item) => item.usageVersion)).toEqual([1]);
  });

  it('keeps each provider’s usage apart and lists the providers with usage', async () => {
    // Prepare
    const orgId = randomUUID();
    await importUsage(orgId, usageOf('gcp', { vm: { '2026-06-01T00:00:00Z': 1 } }));
    await importUsage(orgId, usageOf('aws', { vm: { '2026-06-01T00:00:00Z': 2 } }));
    await openSession(orgId, 'azure');

    // Act
    const providers = await table.store.usage.listProvidersWithUsage(orgId);

    // Assess
    expect(providers).toEqual(['aws', 'gcp']);
    const window = { start: '2026-06-01T00:00:00Z', hours: 1 };
    expect((await table.store.usage.loadUsage(orgId, 'gcp', window))[0]?.usage[0]).toBe(1);
    expect((await table.store.usage.loadUsage(orgId, 'aws', window))[0]?.usage[0]).toBe(2);
    expect(await table.store.usage.listProvidersWithUsage(randomUUID())).toEqual([]);
  });

  describe('usage state', () => {
    it('raises the plan inputs version for another input than an import, only when no import session is open', async () => {
      // Prepare
      const orgId = randomUUID();
      const imported = await importUsage(orgId, usageOf('aws', { 'i-1': { '2026-06-10T05:00:00Z': 1 } }));

      // Act
      const raised = await table.store.usage.raisePlanInputsVersion(orgId, 'aws', '2026-08-02T00:00:00.000Z');
      const afterRaise = await table.store.usage.usageState(orgId, 'aws');
      const running = await openSession(orgId, 'aws', '2026-08-03T00:00:00.000Z');
      const duringImport = await table.store.usage.raisePlanInputsVersion(
        orgId,
        'aws',
        '2026-08-03T00:01:00.000Z',
      );
      const withoutInputs = await table.store.usage.raisePlanInputsVersion(
        orgId,
        'gcp',
        '2026-08-03T00:01:00.000Z',
      );

      // Assess
      expect(raised).toBe(true);
      expect(afterRaise?.usageVersion).toBe(imported.usageVersion + 1);
      expect(afterRaise?.importSession).toBeNull();
      expect(duringImport).toBe(false);
      expect((await table.store.usage.usageState(orgId, 'aws'))?.usageVersion).toBe(running.version);
      expect(withoutInputs).toBe(false);
      expect(await table.store.usage.usageState(orgId, 'gcp')).toBeNull();
    });

    it('raises the version when an import session opens and records the session until it ends', async () => {
      // Prepare
      const orgId = randomUUID();
      const first = await importUsage(orgId, usageOf('aws', { 'i-1': { '2026-06-10T05:00:00Z': 1 } }));

      // Act
      const { sessionId, version } = await openSession(orgId, 'aws', '2026-08-02T00:00:00.000Z');
      const running = await table.store.usage.usageState(orgId, 'aws');

      // Assess
      expect(first).toEqual({
        orgId,
        provider: 'aws',
        usageVersion: 1,
        importSession: null,
        version: 2,
        firstHour: '2026-06-10T05:00:00Z',
        lastHour: '2026-06-10T05:00:00Z',
        resources: 1,
        commitments: 0,
        updatedAt: '2026-08-01T00:05:00.000Z',
      });
      expect(version).toBe(2);
      expect(running).toMatchObject({
        usageVersion: 2,
        importSession: {
          sessionId,
          startedAt: '2026-08-02T00:00:00.000Z',
          expiresAt: '2026-08-01T00:05:00.000Z',
          baseVersion: 0,
        },
      });
      expect(await table.store.usage.usageState(randomUUID(), 'aws')).toBeNull();
    });

    it('widens the stored hours to every import’s covered hours and records the last import’s resources', async () => {
      // Prepare
      const orgId = randomUUID();
      await importUsage(
        orgId,
        usageOf('aws', { a: { '2026-06-10T00:00:00Z': 1 }, b: { '2026-06-12T00:00:00Z': 1 } }),
      );

      // Act
      const state = await importUsage(orgId, usageOf('aws', { a: { '2026-06-01T00:00:00Z': 1 } }));

      // Assess
      expect(state).toMatchObject({
        usageVersion: 2,
        firstHour: '2026-06-01T00:00:00Z',
        lastHour: '2026-06-12T00:00:00Z',
        resources: 1,
      });
    });

    it('records a commitment import’s count without touching the stored hours', async () => {
      // Prepare
      const orgId = randomUUID();
      await importUsage(orgId, usageOf('aws', { a: { '2026-06-10T00:00:00Z': 1 } }));
      const { sessionId } = await openSession(orgId, 'aws', '2026-08-03T00:00:00.000Z');

      // Act
      const state = await table.store.usage.finishImport(
        orgId,
        'aws',
        sessionId,
        { kind: 'commitments', commitments: 7 },
        '2026-08-03T00:01:00.000Z',
      );

      // Assess
      expect(state).toMatchObject({
        usageVersion: 2,
        importSession: null,
        firstHour: '2026-06-10T00:00:00Z',
        commitments: 7,
        resources: 1,
      });
    });

    it('lets only the session owning the state renew or end it, leaving the later one open', async () => {
      // Prepare: a second session opened over the first (a take-over).
      const orgId = randomUUID();
      const early = await openSession(orgId, 'aws', '2026-08-01T00:00:00.000Z');
      const late = await openSession(orgId, 'aws', '2026-08-01T00:01:00.000Z');

      // Act
      const renewed = await table.store.usage.renewImport(
        orgId,
        'aws',
        early.sessionId,
        '2026-08-01T00:09:00.000Z',
      );
      const finish = table.store.usage.finishImport(
        orgId,
        'aws',
        early.sessionId,
        { kind: 'commitments', commitments: 0 },
        '2026-08-01T00:02:00.000Z',
      );

      // Assess
      expect(renewed).toBe(false);
      await expect(finish).rejects.toBeInstanceOf(ConflictError);
      expect(await table.store.usage.usageState(orgId, 'aws')).toMatchObject({
        usageVersion: 2,
        importSession: { sessionId: late.sessionId, expiresAt: '2026-08-01T00:05:00.000Z' },
      });
      expect(
        await table.store.usage.renewImport(orgId, 'aws', late.sessionId, '2026-08-01T00:09:00.000Z'),
      ).toBe(true);
    });

    it('opens a session only on the state version it read', async () => {
      // Prepare
      const orgId = randomUUID();
      await openSession(orgId, 'aws');
      const session = {
        sessionId: randomUUID(),
        startedAt: '2026-08-01T00:00:00.000Z',
        expiresAt: '2026-08-01T00:05:00.000Z',
        baseVersion: 0,
      };

      // Act
      const overMissing = await table.store.usage.openImport(orgId, 'aws', session, null);
      const overOld = await table.store.usage.openImport(orgId, 'aws', session, 0);

      // Assess
      expect(overMissing).toBeNull();
      expect(overOld).toBeNull();
      expect((await table.store.usage.usageState(orgId, 'aws'))?.usageVersion).toBe(1);
    });

    it('finds the last hour with stored usage in a range, searching back across months', async () => {
      // Prepare: usage in June and on 2062-01-01; nothing in between.
      const orgId = randomUUID();
      await importUsage(
        orgId,
        usageOf('aws', { a: { '2026-06-10T03:00:00Z': 1 }, b: { '2026-06-20T07:00:00Z': 2 } }),
      );
      await importUsage(orgId, usageOf('aws', { a: { '2062-01-01T00:00:00Z': 1 } }));
      const june = hourOf('2026-06-01T00:00:00Z');

      // Act
      const beforeAugust = await table.store.usage.lastHourWithUsage(
        orgId,
        'aws',
        june,
        hourOf('2026-08-31T00:00:00Z'),
      );
      const beforeJune20 = await table.store.usage.lastHourWithUsage(
        orgId,
        'aws',
        june,
        hourOf('2026-06-20T06:00:00Z'),
      );
      const inJuly = await table.store.usage.lastHourWithUsage(
        orgId,
        'aws',
        hourOf('2026-07-01T00:00:00Z'),
        hourOf('2026-07-31T23:00:00Z'),
      );

      // Assess
      expect(beforeAugust).toBe(hourOf('2026-06-20T07:00:00Z'));
      expect(beforeJune20).toBe(hourOf('2026-06-10T03:00:00Z'));
      expect(inJuly).toBeNull();
    });
  });
});
