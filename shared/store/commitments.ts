import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { CommitmentRepository } from '../app/ports';
import type { ExistingCommitment, OfferContractType, Provider } from '../domain/engine/shapes/model';
import { upsert } from './conditional-writes';
import { commitmentKey, commitmentPartition, commitmentProviderPrefix, type ItemKey } from './keys';
import { queryAll, type StoredItem, type TableClient } from './table-client';

/** The commitments an org owns, one item each (docs/data-model.md). */
export function createCommitmentRepository(table: TableClient): CommitmentRepository {
  function list(orgId: string, provider?: Provider): Promise<StoredItem[]> {
    return queryAll(table, {
      KeyConditionExpression: provider ? 'PK = :commit AND begins_with(SK, :provider)' : 'PK = :commit',
      ExpressionAttributeValues: {
        ':commit': commitmentPartition(orgId),
        ...(provider ? { ':provider': commitmentProviderPrefix(provider) } : {}),
      },
      ConsistentRead: true,
    });
  }

  return {
    async replaceCommitments(orgId, provider, commitments) {
      // New ones first, then the others go: a retry after a failure in between completes the
      // replacement (ids are stable, so the same commitment is rewritten in place).
      const kept = new Set<string>();
      for (const commitment of commitments) {
        if (commitment.provider !== provider) {
          throw new RangeError(`commitment ${commitment.id} is of ${commitment.provider}, not ${provider}`);
        }
        await upsert(table, keyOf(orgId, commitment), toAttributes(commitment));
        kept.add(commitment.id);
      }
      for (const item of await list(orgId, provider)) {
        if (kept.has(item.id as string)) continue;
        await table.client.send(
          new DeleteCommand({ TableName: table.tableName, Key: { PK: item.PK, SK: item.SK } }),
        );
      }
    },

    async putCommitment(orgId, commitment) {
      await upsert(table, keyOf(orgId, commitment), toAttributes(commitment));
    },

    async deleteCommitments(orgId, provider, ids) {
      const gone = new Set(ids);
      for (const item of await list(orgId, provider)) {
        if (!gone.has(item.id as string)) continue;
        await table.client.send(
          new DeleteCommand({ TableName: table.tableName, Key: { PK: item.PK, SK: item.SK } }),
        );
      }
    },

    async listCommitments(orgId, provider) {
      return (await list(orgId, provider)).map(toCommitment);
    },
  };
}

/** Sorted under the UTC date its term ends. */
function keyOf(orgId: string, commitment: ExistingCommitment): ItemKey {
  const endDate = new Date(commitment.end).toISOString().slice(0, 10);
  return commitmentKey(orgId, commitment.provider, endDate, commitment.id);
}

/** The optional fields saying what a commitment covers and when it was bought: stored when given. */
const coverageFields = [
  'operatingSystem',
  'tenancy',
  'deploymentOption',
  'instanceFamily',
  'paymentOption',
  'availabilityZone',
  'purchasedAt',
] as const satisfies readonly (keyof ExistingCommitment)[];

/** Every field; a null instance type (spend commitments) and absent optional fields are absent attributes. */
function toAttributes(commitment: ExistingCommitment): StoredItem {
  const attributes: StoredItem = {
    type: 'commitment',
    id: commitment.id,
    provider: commitment.provider,
    accountId: commitment.accountId,
    region: commitment.region,
    contractType: commitment.contractType,
    quantity: commitment.quantity,
    hourlyCommitment: commitment.hourlyCommitment,
    upfrontCost: commitment.upfrontCost,
    recurringCost: commitment.recurringCost,
    start: commitment.start,
    end: commitment.end,
    lockinEnd: commitment.lockinEnd,
  };
  if (commitment.instanceType !== null) attributes.instanceType = commitment.instanceType;
  for (const field of coverageFields) {
    if (commitment[field] !== undefined) attributes[field] = commitment[field];
  }
  return attributes;
}

function toCommitment(item: StoredItem): ExistingCommitment {
  const given: Partial<Record<(typeof coverageFields)[number], string>> = {};
  for (const field of coverageFields) {
    if (typeof item[field] === 'string') given[field] = item[field];
  }
  return {
    ...(given as Pick<ExistingCommitment, (typeof coverageFields)[number]>),
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
