import type { ClientAuthMethod, OAuthClient } from '../../domain/oauth/records';
import { getItem, type StoredItem, type TableClient } from '../table-client';
import { oauthClientKey } from './oauth-keys';

/** The client item (docs/data-model.md, OAuth), as the clients repository writes it and every OAuth function reads it. */

export function toClientItem(client: OAuthClient): StoredItem {
  return {
    type: 'oauth_client',
    version: 1,
    clientId: client.clientId,
    name: client.name,
    redirectUris: [...client.redirectUris],
    authMethod: client.authMethod,
    secretHash: client.secretHash ?? undefined,
    registration: client.registration,
    createdAt: client.createdAt,
    revokedAt: client.revokedAt ?? undefined,
  };
}

export function toClient(item: StoredItem): OAuthClient {
  return {
    clientId: item.clientId as string,
    name: item.name as string,
    redirectUris: item.redirectUris as string[],
    authMethod: item.authMethod as ClientAuthMethod,
    secretHash: (item.secretHash as string | undefined) ?? null,
    registration: item.registration as OAuthClient['registration'],
    createdAt: item.createdAt as string,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
  };
}

/** `OAuthClientLookup.getClient`, which each of the three OAuth repositories offers. */
export async function readClient(table: TableClient, clientId: string): Promise<OAuthClient | null> {
  const item = await getItem(table, oauthClientKey(clientId));
  return item ? toClient(item) : null;
}
