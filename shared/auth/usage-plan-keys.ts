import {
  type APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeysCommand,
  GetUsagePlansCommand,
} from '@aws-sdk/client-api-gateway';
import { usageIdentifierOfKey, usageIdentifierOfOAuthClient } from './api-keys';

/**
 * The deployed API's per-key throttling (docs/deploy.md): API Gateway throttles a usage plan's
 * keys one by one, and knows a caller's key by the authorizer's `usageIdentifierKey`. So each of
 * our API keys needs an API Gateway key of that value in the tenants' usage plan.
 */
export interface UsagePlanKeys {
  /** Adds our key's API Gateway key to the plan; doing it again changes nothing. */
  register(keyId: string): Promise<void>;
  /** Deletes our key's API Gateway key (and so its place in the plan), if there is one. */
  remove(keyId: string): Promise<void>;
  /**
   * Deletes the API Gateway key earlier versions gave an OAuth client, if there is one. No client
   * gets one now: all share the OAuth clients' key (`oauthClientsUsageIdentifier`).
   */
  removeOAuthClient(clientId: string): Promise<void>;
}

/**
 * On API Gateway. The API Gateway key is named and valued after our key id's usage identifier;
 * it is looked up by that name, so registering twice, or after a failure half-way, is safe.
 */
export function apiGatewayUsagePlanKeys(client: APIGatewayClient, usagePlanId: string): UsagePlanKeys {
  const gatewayKeyIds = async (name: string): Promise<string[]> => {
    const ids: string[] = [];
    let position: string | undefined;
    do {
      // `nameQuery` matches names by prefix: keep exact matches only.
      const page = await client.send(new GetApiKeysCommand({ nameQuery: name, position, limit: 500 }));
      for (const item of page.items ?? []) if (item.name === name && item.id) ids.push(item.id);
      position = page.position;
    } while (position);
    return ids;
  };

  async function register(identifier: string, description: string): Promise<void> {
    let [gatewayKeyId] = await gatewayKeyIds(identifier);
    if (gatewayKeyId === undefined) {
      const created = await client.send(
        new CreateApiKeyCommand({ name: identifier, value: identifier, enabled: true, description }),
      );
      gatewayKeyId = created.id;
    }
    try {
      await client.send(
        new CreateUsagePlanKeyCommand({ usagePlanId, keyId: gatewayKeyId, keyType: 'API_KEY' }),
      );
    } catch (error) {
      // Already in the plan.
      if (!(error instanceof ConflictException)) throw error;
    }
  }

  async function remove(identifier: string): Promise<void> {
    for (const gatewayKeyId of await gatewayKeyIds(identifier)) {
      await client.send(new DeleteApiKeyCommand({ apiKey: gatewayKeyId }));
    }
  }

  return {
    register: (keyId) =>
      register(
        usageIdentifierOfKey(keyId),
        `Throttle bucket of the service's API key ${keyId} (not a credential)`,
      ),
    remove: (keyId) => remove(usageIdentifierOfKey(keyId)),
    removeOAuthClient: (clientId) => remove(usageIdentifierOfOAuthClient(clientId)),
  };
}

/** The id of the usage plan named `name` (names are unique in our deployment); throws when none is. */
export async function usagePlanIdByName(client: APIGatewayClient, name: string): Promise<string> {
  let position: string | undefined;
  do {
    const page = await client.send(new GetUsagePlansCommand({ position, limit: 500 }));
    const plan = (page.items ?? []).find((item) => item.name === name);
    if (plan?.id) return plan.id;
    position = page.position;
  } while (position);
  throw new Error(`No usage plan is named ${name}`);
}
