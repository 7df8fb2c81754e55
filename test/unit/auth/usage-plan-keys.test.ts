import {
  APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeysCommand,
  GetUsagePlansCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { usageIdentifierOfOAuthClient } from '../../../shared/auth/api-keys';
import { apiGatewayUsagePlanKeys, usagePlanIdByName } from '../../../shared/auth/usage-plan-keys';

/**
 * A small API Gateway: API keys by id, and the usage plan's members. Key listing is paged two at a
 * time and matches names by prefix, as `nameQuery` does; a key added to the plan twice conflicts.
 */
function fakeApiGateway() {
  const keys = new Map<string, { name: string; value: string; enabled: boolean }>();
  const planMembers = new Set<string>();
  let nextId = 1;
  const client = new APIGatewayClient({ region: 'eu-west-1' });
  const mock = mockClient(client);
  mock.on(GetApiKeysCommand).callsFake(({ nameQuery = '', position }) => {
    const matching = [...keys].filter(([, key]) => key.name.startsWith(nameQuery));
    const start = Number(position ?? 0);
    const items = matching.slice(start, start + 2).map(([id, key]) => ({ id, name: key.name }));
    return { items, position: start + 2 < matching.length ? String(start + 2) : undefined };
  });
  mock.on(CreateApiKeyCommand).callsFake(({ name, value, enabled }) => {
    const id = `gw-${nextId++}`;
    keys.set(id, { name, value, enabled });
    return { id, name, value, enabled };
  });
  mock.on(CreateUsagePlanKeyCommand).callsFake(({ usagePlanId, keyId }) => {
    if (usagePlanId !== 'plan-1' || !keys.has(keyId)) throw new Error('no such plan or key');
    if (planMembers.has(keyId))
      throw new ConflictException({ message: 'already in the plan', $metadata: {} });
    planMembers.add(keyId);
    return { id: keyId };
  });
  mock
    .on(GetUsagePlansCommand)
    .callsFake(({ position }) =>
      position === undefined
        ? { items: [{ id: 'plan-0', name: 'another-api-tenants' }], position: 'next' }
        : { items: [{ id: 'plan-1', name: 'commitment-planning-tenants' }] },
    );
  mock.on(DeleteApiKeyCommand).callsFake(({ apiKey }) => {
    keys.delete(apiKey);
    planMembers.delete(apiKey);
    return {};
  });
  /** The plan's keys as `name=value (enabled)`. */
  const plan = () =>
    [...planMembers].map((id) => {
      const key = keys.get(id);
      return `${key?.name}=${key?.value}${key?.enabled ? '' : ' (disabled)'}`;
    });
  return { client, keys, plan };
}

describe('API Gateway usage plan keys', () => {
  let gateway: ReturnType<typeof fakeApiGateway>;

  beforeEach(() => {
    gateway = fakeApiGateway();
  });

  it("adds an enabled API Gateway key valued as the authorizer's usage identifier to the plan", async () => {
    // Act
    await apiGatewayUsagePlanKeys(gateway.client, 'plan-1').register('AbCdEfGh12345678');

    // Assess
    expect(gateway.plan()).toEqual(['cpk-usage-AbCdEfGh12345678=cpk-usage-AbCdEfGh12345678']);
  });

  it("removes the key an earlier version gave an OAuth client, and leaves the API keys' keys alone", async () => {
    // Prepare: a client key as earlier versions created it (name and value its usage identifier).
    const usagePlanKeys = apiGatewayUsagePlanKeys(gateway.client, 'plan-1');
    const legacy = usageIdentifierOfOAuthClient('dash-client');
    const created = await gateway.client.send(
      new CreateApiKeyCommand({ name: legacy, value: legacy, enabled: true }),
    );
    await gateway.client.send(
      new CreateUsagePlanKeyCommand({ usagePlanId: 'plan-1', keyId: created.id, keyType: 'API_KEY' }),
    );
    await usagePlanKeys.register('AbCdEfGh12345678');

    // Act
    await usagePlanKeys.removeOAuthClient('dash-client');
    await usagePlanKeys.removeOAuthClient('dash-client');

    // Assess
    expect(gateway.plan()).toEqual(['cpk-usage-AbCdEfGh12345678=cpk-usage-AbCdEfGh12345678']);
    expect([...gateway.keys.values()].map((key) => key.name)).toEqual(['cpk-usage-AbCdEfGh12345678']);
  });

  it('registers again without a second key, and completes a registration left half-way', async () => {
    // Prepare: a key created earlier that never made it into the plan, among keys of similar names.
    const usagePlanKeys = apiGatewayUsagePlanKeys(gateway.client, 'plan-1');
    for (const keyId of ['aaaaaaaaaaaaaaa1', 'aaaaaaaaaaaaaaa2', 'aaaaaaaaaaaaaaa3'])
      await usagePlanKeys.register(keyId);
    gateway.keys.set('gw-orphan', {
      name: 'cpk-usage-aaaaaaaaaaaaaaa4',
      value: 'cpk-usage-aaaaaaaaaaaaaaa4',
      enabled: true,
    });

    // Act
    await usagePlanKeys.register('aaaaaaaaaaaaaaa2');
    await usagePlanKeys.register('aaaaaaaaaaaaaaa4');

    // Assess
    expect(gateway.keys.size).toBe(4);
    expect(gateway.plan().sort()).toEqual(
      ['1', '2', '3', '4'].map((last) => `cpk-usage-aaaaaaaaaaaaaaa${last}=cpk-usage-aaaaaaaaaaaaaaa${last}`),
    );
  });

  it("removes exactly the key's API Gateway key, and nothing when there is none", async () => {
    // Prepare
    const usagePlanKeys = apiGatewayUsagePlanKeys(gateway.client, 'plan-1');
    await usagePlanKeys.register('bbbbbbbbbbbbbbb1');
    await usagePlanKeys.register('bbbbbbbbbbbbbbb2');

    // Act
    await usagePlanKeys.remove('bbbbbbbbbbbbbbb1');
    await usagePlanKeys.remove('never-registered');

    // Assess
    expect(gateway.plan()).toEqual(['cpk-usage-bbbbbbbbbbbbbbb2=cpk-usage-bbbbbbbbbbbbbbb2']);
  });

  it('passes on failures other than an existing plan membership', async () => {
    // Act
    const failure = apiGatewayUsagePlanKeys(gateway.client, 'no-such-plan').register('ccccccccccccccc1');

    // Assess
    await expect(failure).rejects.toThrow('no such plan or key');
  });

  it('finds the tenants usage plan by its name across pages, and says so when there is none', async () => {
    expect(await usagePlanIdByName(gateway.client, 'commitment-planning-tenants')).toBe('plan-1');
    await expect(usagePlanIdByName(gateway.client, 'missing-tenants')).rejects.toThrow(
      'No usage plan is named missing-tenants',
    );
  });
});
