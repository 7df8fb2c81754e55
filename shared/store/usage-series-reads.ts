import type { UsageRepository } from '../app/ports';
import type { Provider, UsageStream, UsageWindow } from '../domain/engine/shapes/model';
import type { UsageResource } from '../domain/usage/imported-usage';
import { windowStartHour } from '../domain/usage/local-time';
import { monthStartHour, monthsBetween } from '../domain/usage/usage-months';
import { usageMonthPrefix, usagePartition } from './keys';
import { queryPages, type TableClient } from './table-client';
import { toStoredSeries } from './usage-series-items';

/*
 * The reads of the usage series items (`USAGE#<org>#<provider>` / `MONTH#...`, docs/data-model.md),
 * in a module of their own: a function that only reads usage (the chart, resource matches over
 * part of a lookback) does so without bundling the imports' writes (usage.ts).
 */

/** The query of one month's series of an org's provider, page by page. */
export function usageMonthQuery(orgId: string, provider: Provider, month: string) {
  return {
    KeyConditionExpression: 'PK = :usage AND begins_with(SK, :month)',
    ExpressionAttributeValues: {
      ':usage': usagePartition(orgId, provider),
      ':month': usageMonthPrefix(month),
    },
    ConsistentRead: true,
  };
}

/** The stored usage of an org's provider over `window`, one stream per resource, sorted by id. */
export async function loadUsage(
  table: TableClient,
  orgId: string,
  provider: Provider,
  window: UsageWindow,
): Promise<UsageStream[]> {
  const start = windowStartHour(window);
  const end = start + window.hours - 1;
  const streams = new Map<string, { resource: UsageResource; usage: Float64Array }>();
  for (const month of monthsBetween(start, end)) {
    const first = monthStartHour(month);
    for await (const page of queryPages(table, usageMonthQuery(orgId, provider, month))) {
      for (const item of page) {
        const { resource, values } = toStoredSeries(item);
        let stream = streams.get(resource.resourceId);
        if (!stream) {
          stream = { resource, usage: new Float64Array(window.hours) };
          streams.set(resource.resourceId, stream);
        }
        // Months are read in order: the latest month describes the resource.
        stream.resource = resource;
        const from = Math.max(start, first);
        const to = Math.min(end, first + values.length - 1);
        stream.usage.set(values.subarray(from - first, to - first + 1), from - start);
      }
    }
  }
  return [...streams.values()]
    .sort((a, b) => (a.resource.resourceId < b.resource.resourceId ? -1 : 1))
    .map(({ resource, usage }): UsageStream => ({ ...resource, usage }));
}

/** The usage repository's read of the stored series alone. */
export function createUsageSeriesReader(table: TableClient): Pick<UsageRepository, 'loadUsage'> {
  return { loadUsage: (orgId, provider, window) => loadUsage(table, orgId, provider, window) };
}
