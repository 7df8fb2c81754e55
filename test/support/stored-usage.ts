/**
 * Builders of the usage repository's tests (test/integration/store/usage-*.test.ts): usage as the
 * CSV parser answers it, and an import's store steps run on a test table.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Provider } from '../../shared/domain/engine/shapes/model';
import type { ProviderUsage, UsageResource } from '../../shared/domain/usage/imported-usage';
import { hoursInMonth, monthOfHour, monthStartHour } from '../../shared/domain/usage/usage-months';
import { usagePartition } from '../../shared/store/keys';
import type { TestTable } from './dynalite';
import { m5LargeResource } from './usage-streams';

const HOUR_MS = 3_600_000;
export const hourOf = (iso: string) => Date.parse(iso) / HOUR_MS;

export const aResource = (resourceId: string, provider: Provider = 'aws'): UsageResource =>
  m5LargeResource(resourceId, { provider });

/** What the CSV parser answers for a file with these rows (ISO hour -> units per resource). */
export function usageOf(
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

/** `hours` consecutive hours from `start`, each with `units`. */
export function hoursFrom(
  start: string,
  hours: number,
  units: (hour: number) => number,
): Record<string, number> {
  const first = hourOf(start);
  return Object.fromEntries(
    Array.from({ length: hours }, (_, t) => [new Date((first + t) * HOUR_MS).toISOString(), units(t)]),
  );
}

/** An import's store steps on `table`: open a session, replace the covered hours, finish. */
export function usageImportSteps(table: TestTable) {
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
  return { openSession, importUsage, seriesItems };
}
