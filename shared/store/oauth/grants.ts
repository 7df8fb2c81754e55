import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OAuthGrantRepository, SingleUse } from '../../app/ports';
import { oauthLifetimes, secondsAfter } from '../../domain/oauth/records';
import { itemFailingCondition, putIfAbsent } from '../conditional-writes';
import type { ItemKey } from '../keys';
import { epochSeconds } from '../rate-counters';
import { getItem, putItem, queryAll, type StoredItem, type TableClient } from '../table-client';
import { readClient } from './client-items';
import { codeItems, familyItems, refreshTokenItems } from './oauth-items';
import {
  oauthClientFamilyKey,
  oauthClientFamilyPrefix,
  oauthClientKey,
  oauthCodeKey,
  oauthFamiliesOfUserPartition,
  oauthFamilyByUserIndexKey,
  oauthFamilyKey,
  oauthRefreshTokenKey,
} from './oauth-keys';

/**
 * The grants (docs/oauth.md, docs/data-model.md): the token function's repository, and the
 * operator's for revoking families. Every item carries the TTL `expiresAt` (epoch seconds);
 * DynamoDB deletes expired items within days, so readers check expiry themselves (dynalite never
 * deletes them).
 */
export function createOAuthGrantRepository(table: TableClient): OAuthGrantRepository {
  /** Sets `attribute` to `at` unless it is set: the stored item before the write, and whether it was unset. */
  async function spend(key: ItemKey, attribute: string, at: string): Promise<SingleUse<StoredItem>> {
    try {
      const { Attributes } = await table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: key,
          UpdateExpression: 'SET #spent = :at ADD #version :one',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#spent)',
          ExpressionAttributeNames: { '#spent': attribute, '#version': 'version' },
          ExpressionAttributeValues: { ':at': at, ':one': 1 },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'first', item: Attributes as StoredItem };
    } catch (error) {
      const stored = await itemFailingCondition(error, () => getItem(table, key));
      return stored ? { kind: 'again', item: stored } : { kind: 'unknown' };
    }
  }

  return {
    getClient: (clientId) => readClient(table, clientId),

    async spendCode(codeHash, at) {
      const spent = await spend(oauthCodeKey(codeHash), 'usedAt', at);
      return spent.kind === 'unknown'
        ? spent
        : { kind: spent.kind, item: codeItems.read(spent.item, { codeHash }) };
    },

    async createFamily(family) {
      const existing = await putIfAbsent(table, oauthFamilyKey(family.familyId), {
        ...oauthFamilyByUserIndexKey(family.email, family.createdAt, family.familyId),
        ...familyItems.write(family),
      });
      if (existing) return false;
      await putItem(table, oauthClientFamilyKey(family.clientId, family.familyId), {
        type: 'oauth_client_family',
        version: 1,
        familyId: family.familyId,
        expiresAt: epochSeconds(family.expiresAt),
      });
      return true;
    },

    async getFamily(familyId) {
      const item = await getItem(table, oauthFamilyKey(familyId));
      // A marker (revoked before it was created) has no content: there is no family to speak of.
      return item && item.clientId !== undefined ? familyItems.read(item) : null;
    },

    async revokeFamily(familyId, at) {
      await table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: oauthFamilyKey(familyId),
          // A marker for a family not created yet keeps its later creation from succeeding.
          UpdateExpression:
            'SET #type = :type, familyId = :id, revoked = :true, revokedAt = if_not_exists(revokedAt, :at), expiresAt = if_not_exists(expiresAt, :expires) ADD #version :one',
          ExpressionAttributeNames: { '#type': 'type', '#version': 'version' },
          ExpressionAttributeValues: {
            ':type': 'oauth_family',
            ':id': familyId,
            ':true': true,
            ':at': at,
            ':expires': epochSeconds(secondsAfter(new Date(at), oauthLifetimes.refreshAbsolute)),
            ':one': 1,
          },
        }),
      );
    },

    async familiesOfUser(email) {
      const items = await queryAll(table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': oauthFamiliesOfUserPartition(email) },
      });
      return items.map((item) => familyItems.read(item));
    },

    async familyIdsOfClient(clientId) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': oauthClientKey(clientId).PK, ':prefix': oauthClientFamilyPrefix },
      });
      return items.map((item) => item.familyId as string);
    },

    putRefreshToken: (token) =>
      putItem(table, oauthRefreshTokenKey(token.tokenHash), refreshTokenItems.write(token)),

    async getRefreshToken(tokenHash) {
      const item = await getItem(table, oauthRefreshTokenKey(tokenHash));
      return item ? refreshTokenItems.read(item, { tokenHash }) : null;
    },

    async spendRefreshToken(tokenHash, at) {
      const spent = await spend(oauthRefreshTokenKey(tokenHash), 'rotatedAt', at);
      return spent.kind === 'unknown'
        ? spent
        : { kind: spent.kind, item: refreshTokenItems.read(spent.item, { tokenHash }) };
    },
  };
}
