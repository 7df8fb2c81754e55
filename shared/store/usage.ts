import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportedInputs, UsageRepository } from '../app/ports';
import { ConflictError } from '../domain/errors';
import {
  type ImportedSeries,
  type ProviderUsage,
  replaceCoveredHours,
  type UsageResource,
} from '../domain/usage/imported-usage';
import { isoHour } from '../domain/usage/local-time';
import { monthStartHour, monthsBetween } from '../domain/usage/usage-months';
import { type BatchWrite, writeInBatches } from './batch-writes';
import { isConditionFailure, updateIf } from './conditional-writes';
import { usageSeriesKey, usageStateKey } from './keys';
import { getItem, queryPages, type StoredItem, type TableClient } from './table-client';
import { type StoredSeries, sameResource, toSeriesItem, toStoredSeries } from './usage-series-items';
import { loadUsage, usageMonthQuery } from './usage-series-reads';
import { listProvidersWithUsage, readUsageState, toUsageState } from './usage-states';

const HOUR_MS = 3_600_000;

/** Writes of new series are sent in groups of this many (each item holds up to 6 KB of hours). */
const WRITES_PER_FLUSH = 200;

/** Usage series and usage state items (docs/data-model.md, docs/import.md). */
export function createUsageRepository(table: TableClient): UsageRepository {
  /** The write that makes `stored` (if any) hold `values` for `resource`; null when nothing changes. */
  function writeFor(
    orgId: string,
    month: string,
    stored: StoredSeries | undefined,
    resource: UsageResource,
    values: Float64Array,
    usageVersion: number,
  ): BatchWrite | null {
    // No item reads as zeros: a month without usage is not kept.
    if (values.every((value) => value === 0)) {
      if (!stored) return null;
      return { delete: usageSeriesKey(orgId, resource.provider, resource.resourceId, month) };
    }
    if (stored && sameResource(stored.resource, resource) && sameValues(stored.values, values)) return null;
    return { put: toSeriesItem(orgId, { month, resource, values }, usageVersion) };
  }

  /**
   * The writes that make the provider's stored usage take `usage`'s values on its covered hours
   * (replaceCoveredHours), handed to `sink` group by group, month by month, until it says stop.
   */
  async function coveredHourWrites(
    orgId: string,
    usage: ProviderUsage,
    usageVersion: number,
    sink: (month: string, writes: BatchWrite[]) => Promise<'go on' | 'stop'>,
  ): Promise<void> {
    const { provider, covered } = usage;
    const named = new Map<string, ImportedSeries>(
      usage.series.map((series) => [series.resource.resourceId, series]),
    );
    for (const month of monthsBetween(covered.firstHour, covered.lastHour)) {
      const storedIds = new Set<string>();
      // Page by page: a month of a large fleet does not fit in memory at once. Only items of
      // the page just read are rewritten, so the pages still to come are not disturbed.
      for await (const page of queryPages(table, usageMonthQuery(orgId, provider, month))) {
        const writes: BatchWrite[] = [];
        for (const item of page) {
          const stored = toStoredSeries(item);
          const id = stored.resource.resourceId;
          storedIds.add(id);
          const imported = named.get(id);
          const values = replaceCoveredHours(month, covered, stored.values, imported?.months.get(month));
          const write = writeFor(
            orgId,
            month,
            stored,
            imported?.resource ?? stored.resource,
            values,
            usageVersion,
          );
          if (write) writes.push(write);
        }
        if ((await sink(month, writes)) === 'stop') return;
      }
      let writes: BatchWrite[] = [];
      for (const series of usage.series) {
        const importedValues = series.months.get(month);
        if (!importedValues || storedIds.has(series.resource.resourceId)) continue;
        const values = replaceCoveredHours(month, covered, undefined, importedValues);
        const write = writeFor(orgId, month, undefined, series.resource, values, usageVersion);
        if (write) writes.push(write);
        if (writes.length >= WRITES_PER_FLUSH) {
          if ((await sink(month, writes)) === 'stop') return;
          writes = [];
        }
      }
      if ((await sink(month, writes)) === 'stop') return;
    }
  }

  return {
    async openImport(orgId, provider, session, expectedStateVersion) {
      try {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: usageStateKey(orgId, provider),
            UpdateExpression:
              'SET #type = :type, orgId = :org, provider = :provider, updatedAt = :at, ' +
              'importSessionId = :session, importStartedAt = :at, importExpiresAt = :expires, importBaseVersion = :base, ' +
              'resources = if_not_exists(resources, :zero), commitments = if_not_exists(commitments, :zero) ' +
              'ADD usageVersion :one, #version :one',
            ConditionExpression:
              expectedStateVersion === null ? 'attribute_not_exists(PK)' : '#version = :expected',
            ExpressionAttributeNames: { '#type': 'type', '#version': 'version' },
            ExpressionAttributeValues: {
              ':type': 'usage_state',
              ':org': orgId,
              ':provider': provider,
              ':at': session.startedAt,
              ':session': session.sessionId,
              ':expires': session.expiresAt,
              ':base': session.baseVersion,
              ':zero': 0,
              ':one': 1,
              ...(expectedStateVersion === null ? {} : { ':expected': expectedStateVersion }),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return (Attributes as StoredItem).usageVersion as number;
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    renewImport(orgId, provider, sessionId, expiresAt) {
      return updateIf(table, {
        key: usageStateKey(orgId, provider),
        expression: 'SET importExpiresAt = :expires',
        condition: 'importSessionId = :session',
        values: { ':expires': expiresAt, ':session': sessionId },
      });
    },

    async replaceCoveredHours(orgId, usage, usageVersion, beforeWrites) {
      await coveredHourWrites(orgId, usage, usageVersion, async (month, writes) => {
        if (writes.length > 0) await beforeWrites?.(month);
        await writeInBatches(table, writes);
        return 'go on';
      });
    },

    async coveredHoursChange(orgId, usage) {
      let changes = false;
      await coveredHourWrites(orgId, usage, 0, async (_month, writes) => {
        changes = writes.length > 0;
        return changes ? 'stop' : 'go on';
      });
      return changes;
    },

    async finishImport(orgId, provider, sessionId, imported, at) {
      const key = usageStateKey(orgId, provider);
      const changes = await importedChanges(imported, () => getItem(table, key));
      const names: Record<string, string> = { '#version': 'version' };
      const values: Record<string, unknown> = { ':session': sessionId, ':at': at, ':one': 1 };
      const assignments = Object.entries(changes.set).map(([name, value], index) => {
        names[`#c${index}`] = name;
        values[`:c${index}`] = value;
        return `#c${index} = :c${index}`;
      });
      const removed = [
        'importSessionId',
        'importStartedAt',
        'importExpiresAt',
        'importBaseVersion',
        ...changes.remove,
      ];
      try {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: key,
            UpdateExpression: `SET ${[...assignments, 'updatedAt = :at'].join(', ')} REMOVE ${removed.join(', ')} ADD #version :one`,
            ConditionExpression: 'importSessionId = :session',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return toUsageState(Attributes as StoredItem);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        throw new ConflictError(
          `Another import of ${provider} data for organization ${orgId} took this one over; run this import again`,
        );
      }
    },

    raisePlanInputsVersion(orgId, provider, at) {
      return updateIf(table, {
        key: usageStateKey(orgId, provider),
        expression: 'SET updatedAt = :at',
        adds: ['usageVersion :one'],
        // Raising the version under an open import session would make its end fail as a conflict.
        condition: 'attribute_exists(PK) AND attribute_not_exists(importSessionId)',
        values: { ':at': at },
      });
    },

    async lastHourWithUsage(orgId, provider, notBefore, notAfter) {
      if (notAfter < notBefore) return null;
      const months = monthsBetween(notBefore, notAfter).reverse();
      for (const month of months) {
        const first = monthStartHour(month);
        let last: number | null = null;
        for await (const page of queryPages(table, usageMonthQuery(orgId, provider, month))) {
          for (const item of page) {
            const { values } = toStoredSeries(item);
            const to = Math.min(values.length - 1, notAfter - first);
            const from = Math.max(0, notBefore - first);
            for (let hour = to; hour >= from && (last === null || first + hour > last); hour--) {
              if (values[hour] !== 0) {
                last = first + hour;
                break;
              }
            }
          }
        }
        if (last !== null) return last;
      }
      return null;
    },

    loadUsage: (orgId, provider, window) => loadUsage(table, orgId, provider, window),

    async usageState(orgId, provider) {
      return readUsageState(table, orgId, provider);
    },

    listProvidersWithUsage: (orgId) => listProvidersWithUsage(table, orgId),
  };
}

/**
 * The usage state attributes an ended import sets and removes. Stored usage spans every import's
 * covered hours, so the first and last hour widen to include the new ones; a repair sets the last
 * hour to the last one with usage left.
 */
async function importedChanges(
  imported: ImportedInputs | null,
  readState: () => Promise<StoredItem | null>,
): Promise<{ set: Record<string, unknown>; remove: string[] }> {
  if (imported === null) return { set: {}, remove: [] };
  if (imported.kind === 'commitments') return { set: { commitments: imported.commitments }, remove: [] };
  if (imported.kind === 'repair') {
    return imported.lastHour === null
      ? { set: {}, remove: ['firstHour', 'lastHour'] }
      : { set: { lastHour: isoHour(imported.lastHour) }, remove: [] };
  }
  const state = await readState();
  const hourOf = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) / HOUR_MS : undefined);
  const storedFirst = hourOf(state?.firstHour);
  const storedLast = hourOf(state?.lastHour);
  const { firstHour, lastHour } = imported.covered;
  return {
    set: {
      firstHour: isoHour(storedFirst === undefined ? firstHour : Math.min(storedFirst, firstHour)),
      lastHour: isoHour(storedLast === undefined ? lastHour : Math.max(storedLast, lastHour)),
      resources: imported.resources,
    },
    remove: [],
  };
}

function sameValues(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let hour = 0; hour < a.length; hour++) if (a[hour] !== b[hour]) return false;
  return true;
}
