import type { UsageRepository } from '../app/ports';
import type { Provider } from '../domain/engine/shapes/model';
import { orgPartition, usageStatePrefix } from './keys';
import { queryAll, type TableClient } from './table-client';

/**
 * The providers an org has imported usage of, from its usage states (docs/data-model.md), in a
 * module of its own: a function that only lists them (the onboarding function's child-org
 * listing) reads them without bundling the usage repository's imports (usage.ts).
 */
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
