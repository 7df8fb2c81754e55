import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRepository } from '../app/ports';
import type { ApiKeyOwner, ApiKeyRecord } from '../auth/api-keys';
import { ConflictError, NotFoundError } from '../domain/errors';
import { normalizeEmail } from '../domain/orgs';
import { isConditionFailure, itemFailingCondition, putIfAbsent } from './conditional-writes';
import { apiKeyKey } from './keys';
import { getItem, type StoredItem, type TableClient } from './table-client';

/**
 * API key records under their key id (docs/data-model.md). `revokedAt` and `lastUsedAt` are
 * absent until set, which lets updates test for them.
 */
export function createApiKeyRepository(table: TableClient): ApiKeyRepository {
  async function update(keyId: string, input: Omit<UpdateCommandInput, 'TableName' | 'Key'>) {
    return table.client.send(
      new UpdateCommand({
        ...input,
        TableName: table.tableName,
        Key: apiKeyKey(keyId),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  }

  return {
    async create(record) {
      const existing = await putIfAbsent(table, apiKeyKey(record.keyId), toApiKeyItem(record));
      if (existing) throw new ConflictError(`API key ${record.keyId} exists already`);
    },

    async get(keyId) {
      const item = await getItem(table, apiKeyKey(keyId));
      return item ? toApiKeyRecord(item) : null;
    },

    async revoke(keyId, at) {
      try {
        const { Attributes } = await update(keyId, {
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at) ADD #version :one',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':at': at, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        });
        return toApiKeyRecord(Attributes as StoredItem);
      } catch (error) {
        if (isConditionFailure(error)) throw new NotFoundError(`API key ${keyId} does not exist`);
        throw error;
      }
    },

    async markUsed(keyId, at) {
      try {
        await update(keyId, {
          // Bookkeeping, not a change of the key: `version` is left alone, and the authorizer's
          // IAM policy lets it name only PK, SK and lastUsedAt (lib/api-stack.ts).
          UpdateExpression: 'SET lastUsedAt = :at',
          // Concurrent uses may land out of order: keep the latest time.
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :at)',
          ExpressionAttributeValues: { ':at': at },
        });
      } catch (error) {
        const stored = await itemFailingCondition(error, () => getItem(table, apiKeyKey(keyId)));
        if (!stored) throw new NotFoundError(`API key ${keyId} does not exist`);
      }
    },
  };
}

function toApiKeyItem(record: ApiKeyRecord): StoredItem {
  return {
    type: 'api_key',
    version: 1,
    keyId: record.keyId,
    secretHash: record.secretHash,
    ownerKind: record.owner.kind,
    orgId: record.owner.orgId,
    email: record.owner.kind === 'user' ? normalizeEmail(record.owner.email) : undefined,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt ?? undefined,
    lastUsedAt: record.lastUsedAt ?? undefined,
  };
}

function toOwner(item: StoredItem): ApiKeyOwner {
  const orgId = item.orgId as string;
  return item.ownerKind === 'user'
    ? { kind: 'user', orgId, email: item.email as string }
    : { kind: 'partner', orgId };
}

function toApiKeyRecord(item: StoredItem): ApiKeyRecord {
  return {
    keyId: item.keyId as string,
    secretHash: item.secretHash as string,
    owner: toOwner(item),
    createdAt: item.createdAt as string,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
    lastUsedAt: (item.lastUsedAt as string | undefined) ?? null,
  };
}
