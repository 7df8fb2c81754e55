import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OAuthRepository, SingleUse } from '../app/ports';
import { ConflictError, NotFoundError } from '../domain/errors';
import { oauthLifetimes, secondsAfter } from '../domain/oauth/records';
import type { OAuthScope } from '../domain/oauth/scopes';
import { normalizeEmail } from '../domain/orgs';
import { deleteIf, isConditionFailure, itemFailingCondition, putIfAbsent } from './conditional-writes';
import {
  type ItemKey,
  oauthClientFamilyKey,
  oauthClientFamilyPrefix,
  oauthClientKey,
  oauthClientListIndexKey,
  oauthClientsPartition,
  oauthCodeKey,
  oauthFamiliesOfUserPartition,
  oauthFamilyByUserIndexKey,
  oauthFamilyKey,
  oauthRateKey,
  oauthRefreshTokenKey,
  oauthRequestKey,
  oauthSessionKey,
  oauthSignInCodeKey,
} from './keys';
import {
  isoTime,
  toClient,
  toClientItem,
  toCode,
  toFamily,
  toFamilyItem,
  toRefreshToken,
} from './oauth-items';
import { countIf, countPacedEvent, epochSeconds, refundPacedEvent } from './rate-counters';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/**
 * The authorization server's items (docs/oauth.md, docs/data-model.md). Every item but a client
 * carries the TTL `expiresAt` (epoch seconds); DynamoDB deletes expired items within days, so
 * readers check expiry themselves (dynalite never deletes them).
 */
export function createOAuthRepository(table: TableClient): OAuthRepository {
  const put = (key: ItemKey, item: StoredItem) =>
    table.client.send(new PutCommand({ TableName: table.tableName, Item: { ...item, ...key } }));
  const remove = (key: ItemKey) =>
    table.client.send(new DeleteCommand({ TableName: table.tableName, Key: key }));

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
    async createClient(client) {
      const existing = await putIfAbsent(table, oauthClientKey(client.clientId), {
        ...oauthClientListIndexKey(client.createdAt, client.clientId),
        ...toClientItem(client),
      });
      if (existing) throw new ConflictError(`OAuth client ${client.clientId} exists already`);
    },

    async getClient(clientId) {
      const item = await getItem(table, oauthClientKey(clientId));
      return item ? toClient(item) : null;
    },

    async listClients() {
      const items = await queryAll(table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': oauthClientsPartition },
      });
      return items.map(toClient);
    },

    async revokeClient(clientId, at) {
      try {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: oauthClientKey(clientId),
            UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at) ADD #version :one',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':at': at, ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return toClient(Attributes as StoredItem);
      } catch (error) {
        if (isConditionFailure(error)) throw new NotFoundError(`OAuth client ${clientId} does not exist`);
        throw error;
      }
    },

    async putRequest(request) {
      await put(oauthRequestKey(request.requestId), {
        type: 'oauth_request',
        version: 1,
        requestId: request.requestId,
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        scopes: [...request.scopes],
        state: request.state ?? undefined,
        codeChallenge: request.codeChallenge,
        resource: request.resource,
        expiresAt: epochSeconds(request.expiresAt),
      });
    },

    async getRequest(requestId) {
      const item = await getItem(table, oauthRequestKey(requestId));
      if (!item) return null;
      return {
        requestId: item.requestId as string,
        clientId: item.clientId as string,
        redirectUri: item.redirectUri as string,
        scopes: item.scopes as OAuthScope[],
        state: (item.state as string | undefined) ?? null,
        codeChallenge: item.codeChallenge as string,
        resource: item.resource as string,
        expiresAt: isoTime(item.expiresAt),
      };
    },

    async takeRequest(requestId) {
      return deleteIf(table, { key: oauthRequestKey(requestId), condition: 'attribute_exists(PK)' });
    },

    async putSession(session) {
      await put(oauthSessionKey(session.sessionHash), {
        type: 'oauth_session',
        version: 1,
        csrfToken: session.csrfToken,
        email: session.email ?? undefined,
        pendingEmail: session.pendingEmail ?? undefined,
        expiresAt: epochSeconds(session.expiresAt),
      });
    },

    async getSession(sessionHash) {
      const item = await getItem(table, oauthSessionKey(sessionHash));
      if (!item) return null;
      return {
        sessionHash,
        csrfToken: item.csrfToken as string,
        email: (item.email as string | undefined) ?? null,
        pendingEmail: (item.pendingEmail as string | undefined) ?? null,
        expiresAt: isoTime(item.expiresAt),
      };
    },

    async deleteSession(sessionHash) {
      await remove(oauthSessionKey(sessionHash));
    },

    async putSignInCode(code) {
      await put(oauthSignInCodeKey(code.requestId), {
        type: 'oauth_sign_in_code',
        version: 1,
        email: normalizeEmail(code.email),
        codeHash: code.codeHash,
        attempts: code.attempts,
        expiresAt: epochSeconds(code.expiresAt),
      });
    },

    async getSignInCode(requestId) {
      const item = await getItem(table, oauthSignInCodeKey(requestId));
      if (!item) return null;
      return {
        requestId,
        email: item.email as string,
        codeHash: item.codeHash as string,
        attempts: Number(item.attempts),
        expiresAt: isoTime(item.expiresAt),
      };
    },

    async countSignInAttempt(requestId, maxAttempts) {
      return countIf(table, oauthSignInCodeKey(requestId), 'attempts', maxAttempts, {
        mustExist: true,
      });
    },

    async deleteSignInCode(requestId) {
      await remove(oauthSignInCodeKey(requestId));
    },

    async countRateEvent(bucket, limit, expiresAt) {
      return countIf(table, oauthRateKey(bucket), 'events', limit, {
        mustExist: false,
        set: { type: 'oauth_rate', expiresAt: epochSeconds(expiresAt) },
      });
    },

    countPacedEvent: (bucket, pacing) => countPacedEvent(table, oauthRateKey(bucket), pacing),
    refundPacedEvent: (bucket) => refundPacedEvent(table, oauthRateKey(bucket)),

    async putCode(code) {
      await put(oauthCodeKey(code.codeHash), {
        type: 'oauth_code',
        version: 1,
        clientId: code.clientId,
        redirectUri: code.redirectUri,
        codeChallenge: code.codeChallenge,
        email: normalizeEmail(code.email),
        orgId: code.orgId,
        scopes: [...code.scopes],
        resource: code.resource,
        familyId: code.familyId,
        expiresAt: epochSeconds(code.expiresAt),
      });
    },

    async spendCode(codeHash, at) {
      const spent = await spend(oauthCodeKey(codeHash), 'usedAt', at);
      return spent.kind === 'unknown' ? spent : { kind: spent.kind, item: toCode(codeHash, spent.item) };
    },

    async createFamily(family) {
      const existing = await putIfAbsent(table, oauthFamilyKey(family.familyId), {
        ...oauthFamilyByUserIndexKey(family.email, family.createdAt, family.familyId),
        ...toFamilyItem(family),
      });
      if (existing) return false;
      await put(oauthClientFamilyKey(family.clientId, family.familyId), {
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
      return item && item.clientId !== undefined ? toFamily(item) : null;
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
      return items.map(toFamily);
    },

    async familyIdsOfClient(clientId) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': oauthClientKey(clientId).PK, ':prefix': oauthClientFamilyPrefix },
      });
      return items.map((item) => item.familyId as string);
    },

    async putRefreshToken(token) {
      await put(oauthRefreshTokenKey(token.tokenHash), {
        type: 'oauth_refresh_token',
        version: 1,
        familyId: token.familyId,
        clientId: token.clientId,
        createdAt: token.createdAt,
        expiresAt: epochSeconds(token.expiresAt),
      });
    },

    async getRefreshToken(tokenHash) {
      const item = await getItem(table, oauthRefreshTokenKey(tokenHash));
      return item ? toRefreshToken(tokenHash, item) : null;
    },

    async spendRefreshToken(tokenHash, at) {
      const spent = await spend(oauthRefreshTokenKey(tokenHash), 'rotatedAt', at);
      return spent.kind === 'unknown'
        ? spent
        : { kind: spent.kind, item: toRefreshToken(tokenHash, spent.item) };
    },
  };
}
