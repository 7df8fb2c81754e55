import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OAuthClientRepository } from '../../app/ports';
import { ConflictError, NotFoundError } from '../../domain/errors';
import { isConditionFailure, putIfAbsent } from '../conditional-writes';
import { countRateEvent } from '../rate-counters';
import { queryAll, type StoredItem, type TableClient } from '../table-client';
import { readClient } from './client-items';
import { clientItems } from './oauth-items';
import { oauthClientKey, oauthClientListIndexKey, oauthClientsPartition } from './oauth-keys';

/**
 * The OAuth clients (docs/oauth.md, docs/data-model.md): the registration function's repository,
 * and the operator's. A client item has no TTL; the registration throttle's window items do.
 */
export function createOAuthClientRepository(table: TableClient): OAuthClientRepository {
  return {
    async createClient(client) {
      const existing = await putIfAbsent(table, oauthClientKey(client.clientId), {
        ...oauthClientListIndexKey(client.createdAt, client.clientId),
        ...clientItems.write(client),
      });
      if (existing) throw new ConflictError(`OAuth client ${client.clientId} exists already`);
    },

    getClient: (clientId) => readClient(table, clientId),

    async listClients() {
      const items = await queryAll(table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': oauthClientsPartition },
      });
      return items.map((item) => clientItems.read(item));
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
        return clientItems.read(Attributes as StoredItem);
      } catch (error) {
        if (isConditionFailure(error)) throw new NotFoundError(`OAuth client ${clientId} does not exist`);
        throw error;
      }
    },

    countRateEvent: (bucket, limit, expiresAt) => countRateEvent(table, bucket, limit, expiresAt),
  };
}
