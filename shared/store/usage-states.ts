import type { UsageRepository } from '../app/ports';
import type { Provider } from '../domain/engine/shapes/model';
import type { UsageState } from '../domain/usage/usage-state';
import { orgPartition, usageStateKey, usageStatePrefix } from './keys';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/*
 * The reads of the usage state items (`ORG#<org>` / `USAGE#<provider>`, docs/data-model.md), in a
 * module of their own: a function that only reads them (whether an org has usage, which version
 * its plan inputs are) does so without bundling the usage repository's imports (usage.ts).
 */

/** The providers an org has imported usage of. */
export async function listProvidersWithUsage(table: TableClient, orgId: string): Promise<Provider[]> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'PK = :org AND begins_with(SK, :usage)',
    ExpressionAttributeValues: { ':org': orgPartition(orgId), ':usage': usageStatePrefix },
    ConsistentRead: true,
  });
  return items.filter((item) => item.firstHour !== undefined).map((item) => item.provider as Provider);
}

/** The usage repository's list of providers with usage alone. */
export function createUsageProvidersReader(
  table: TableClient,
): Pick<UsageRepository, 'listProvidersWithUsage'> {
  return { listProvidersWithUsage: (orgId) => listProvidersWithUsage(table, orgId) };
}

/** The usage state of an org's provider; null before its first import. */
export async function readUsageState(
  table: TableClient,
  orgId: string,
  provider: Provider,
): Promise<UsageState | null> {
  const item = await getItem(table, usageStateKey(orgId, provider));
  return item ? toUsageState(item) : null;
}

/** The usage repository's read of the usage state alone. */
export function createUsageStateReader(table: TableClient): Pick<UsageRepository, 'usageState'> {
  return { usageState: (orgId, provider) => readUsageState(table, orgId, provider) };
}

export function toUsageState(item: StoredItem): UsageState {
  return {
    version: item.version as number,
    orgId: item.orgId as string,
    provider: item.provider as Provider,
    usageVersion: item.usageVersion as number,
    importSession:
      item.importSessionId === undefined
        ? null
        : {
            sessionId: item.importSessionId as string,
            startedAt: item.importStartedAt as string,
            expiresAt: item.importExpiresAt as string,
            baseVersion: item.importBaseVersion as number,
          },
    firstHour: (item.firstHour as string | undefined) ?? null,
    lastHour: (item.lastHour as string | undefined) ?? null,
    resources: item.resources as number,
    commitments: item.commitments as number,
    updatedAt: item.updatedAt as string,
  };
}
