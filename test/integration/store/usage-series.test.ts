import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UsageResource } from '../../../shared/domain/usage/imported-usage';
import { aResource, hoursFrom, usageImportSteps, usageOf } from '../../support/stored-usage';
import { useTestTable } from '../../support/test-table';

describe('usage repository: series', () => {
  const table = useTestTable();
  const { openSession, importUsage, seriesItems } = usageImportSteps(table);

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
});
