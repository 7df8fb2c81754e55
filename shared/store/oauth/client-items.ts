import type { OAuthClient } from '../../domain/oauth/records';
import { getItem, type TableClient } from '../table-client';
import { clientItems } from './oauth-items';
import { oauthClientKey } from './oauth-keys';

/** `OAuthClientLookup.getClient`, which each of the three OAuth repositories offers. */
export async function readClient(table: TableClient, clientId: string): Promise<OAuthClient | null> {
  const item = await getItem(table, oauthClientKey(clientId));
  return item ? clientItems.read(item) : null;
}
