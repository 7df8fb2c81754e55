import type { CommitmentRepository } from '../app/ports';
import type { ExistingCommitment, OfferContractType, Provider } from '../domain/engine/shapes/model';
import { commitmentPartition, commitmentProviderPrefix } from './keys';
import { queryAll, type StoredItem, type TableClient } from './table-client';

/*
 * The read of an org's stored commitments (`COMMIT#<org>`, docs/data-model.md) and the item's
 * mapping, in a module of their own: a function that only reads them (the chart and resource
 * matches) does so without bundling the commitment repository's writes (commitments.ts).
 */

/** The commitment items of an org, of one provider when given. */
export function queryCommitments(
  table: TableClient,
  orgId: string,
  provider?: Provider,
): Promise<StoredItem[]> {
  return queryAll(table, {
    KeyConditionExpression: provider ? 'PK = :commit AND begins_with(SK, :provider)' : 'PK = :commit',
    ExpressionAttributeValues: {
      ':commit': commitmentPartition(orgId),
      ...(provider ? { ':provider': commitmentProviderPrefix(provider) } : {}),
    },
    ConsistentRead: true,
  });
}

/** The commitment repository's listing alone. */
export function createCommitmentReader(table: TableClient): Pick<CommitmentRepository, 'listCommitments'> {
  return {
    listCommitments: async (orgId, provider) =>
      (await queryCommitments(table, orgId, provider)).map(toCommitment),
  };
}

/** The optional fields saying what a commitment covers and when it was bought: stored when given. */
export const commitmentCoverageFields = [
  'operatingSystem',
  'tenancy',
  'deploymentOption',
  'instanceFamily',
  'paymentOption',
  'availabilityZone',
  'purchasedAt',
] as const satisfies readonly (keyof ExistingCommitment)[];

export function toCommitment(item: StoredItem): ExistingCommitment {
  const given: Partial<Record<(typeof commitmentCoverageFields)[number], string>> = {};
  for (const field of commitmentCoverageFields) {
    if (typeof item[field] === 'string') given[field] = item[field];
  }
  return {
    ...(given as Pick<ExistingCommitment, (typeof commitmentCoverageFields)[number]>),
    id: item.id as string,
    provider: item.provider as Provider,
    accountId: item.accountId as string,
    region: item.region as string,
    contractType: item.contractType as OfferContractType,
    instanceType: (item.instanceType as string | undefined) ?? null,
    quantity: item.quantity as number,
    hourlyCommitment: item.hourlyCommitment as number,
    upfrontCost: item.upfrontCost as number,
    recurringCost: item.recurringCost as number,
    start: item.start as string,
    end: item.end as string,
    lockinEnd: item.lockinEnd as string,
  };
}
