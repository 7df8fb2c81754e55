import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { CommitmentRepository } from '../app/ports';
import type { ExistingCommitment, Provider } from '../domain/engine/shapes/model';
import { commitmentCoverageFields, queryCommitments, toCommitment } from './commitment-reads';
import { upsert } from './conditional-writes';
import { commitmentKey, type ItemKey } from './keys';
import type { StoredItem, TableClient } from './table-client';

/** The commitments an org owns, one item each (docs/data-model.md). */
export function createCommitmentRepository(table: TableClient): CommitmentRepository {
  const list = (orgId: string, provider?: Provider) => queryCommitments(table, orgId, provider);

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
  for (const field of commitmentCoverageFields) {
    if (commitment[field] !== undefined) attributes[field] = commitment[field];
  }
  return attributes;
}
