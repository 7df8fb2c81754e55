import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AzureUsageSubscription } from '../../../shared/app/ports/usage-sync';
import { azureBlobExports } from '../../../shared/cloud/usage-sources/azure-blob-exports';
import { azureUsageSources } from '../../../shared/cloud/usage-sources/azure-usage-sources';
import { ValidationError } from '../../../shared/domain/errors';
import {
  armToken,
  container,
  fake,
  putBlob,
  startAzureUsageServer,
  stopAzureUsageServer,
  storageAccount,
  storageToken,
  subscriptionId,
  tenantId,
} from '../../support/azure-usage-server';

/**
 * URLs the Azure usage adapter builds from what ARM and Blob Storage answer (docs/usage-sync.md,
 * What is refused), against the stateful fake ARM/Blob server: a storage account name that is no
 * Azure name never becomes a host, a `nextLink` off ARM's host is not followed with the ARM token,
 * and a blob name with `..` segments is not read outside the export's prefix.
 */

beforeAll(startAzureUsageServer);
afterAll(stopAzureUsageServer);

const subscription: AzureUsageSubscription = { tenantId, subscriptionId, exportName: null };

const exportTo = (resourceId: string, rootFolderPath = 'focus') => ({
  name: 'daily-focus',
  properties: {
    format: 'Csv',
    definition: { type: 'FocusCost' },
    deliveryInfo: { destination: { type: 'AzureBlob', resourceId, container, rootFolderPath } },
  },
});

const accountId = (name: string) =>
  `/subscriptions/${subscriptionId}/resourceGroups/billing/providers/Microsoft.Storage/storageAccounts/${name}`;

/** The adapter on the fake server, and the storage accounts it was asked to build a Blob URL for. */
function sources() {
  const hosts: string[] = [];
  const adapter = azureUsageSources({
    armTokens: async () => armToken,
    storageTokens: async () => storageToken,
    armEndpoint: `${fake.baseUrl}/arm`,
    blobEndpoint: (account) => {
      hosts.push(account);
      return `${fake.baseUrl}/${account}`;
    },
  });
  return { adapter, hosts };
}

beforeEach(() => {
  fake.state = {
    exports: [exportTo(accountId(storageAccount))],
    blobs: new Map(),
    reservationPages: [],
    orders: {},
    savingsPlans: [],
    armError: null,
  };
  fake.requests.length = 0;
});

describe('storage account names taken from an export', () => {
  it.each(['evil.example#', 'evil.example', 'ab', 'a'.repeat(25), 'Contoso'])(
    'refuses %j before any Blob URL is built',
    async (name) => {
      // Prepare
      fake.state.exports = [exportTo(accountId(name))];
      const { adapter, hosts } = sources();

      // Act
      const connecting = adapter.connect(subscription);

      // Assess
      await expect(connecting).rejects.toThrow(ValidationError);
      await expect(connecting).rejects.toThrow(/no Azure storage account name/);
      expect(hosts).toEqual([]);
    },
  );

  it('refuses a root folder path with a .. segment', async () => {
    fake.state.exports = [exportTo(accountId(storageAccount), 'focus/../elsewhere')];
    await expect(sources().adapter.connect(subscription)).rejects.toThrow(/\. or \.\. segment/);
  });

  it('accepts an account name Azure could give, 3 to 24 lower-case letters and digits', async () => {
    const { adapter, hosts } = sources();
    await adapter.connect(subscription);
    expect(hosts).toEqual([storageAccount]);
  });
});

describe('ARM pages', () => {
  const reservation = (id: string) => ({
    id: `/providers/microsoft.capacity/reservationOrders/o1/reservations/${id}`,
    properties: { provisioningState: 'Failed' },
  });

  it("does not follow a nextLink to another host, so the ARM token stays on ARM's", async () => {
    // Prepare: the first page's nextLink names `localhost`, another host than ARM's 127.0.0.1
    // (the same fake server answers there, so a followed link would show in its requests).
    fake.state.reservationPages = [[reservation('r1')], [reservation('r2')]];
    fake.state.nextLinkBase = `${fake.baseUrl.replace('127.0.0.1', 'localhost')}/arm`;
    const session = await sources().adapter.connect(subscription);

    // Act
    const reading = session.ownedCommitments();

    // Assess
    await expect(reading).rejects.toThrow(/nextLink .* not followed/);
    expect(fake.requests.filter((request) => request.path.includes('page=1'))).toEqual([]);
  });

  it("follows a nextLink on ARM's own host", async () => {
    fake.state.reservationPages = [[reservation('r1')], [reservation('r2')]];
    const session = await sources().adapter.connect(subscription);
    await expect(session.ownedCommitments()).resolves.toEqual([]);
    expect(fake.requests.filter((request) => request.path.includes('page=1'))).toHaveLength(1);
  });
});

describe('blob names with dot segments', () => {
  const blobs = () =>
    azureBlobExports({
      accountUrl: `${fake.baseUrl}/${storageAccount}`,
      container,
      token: async () => storageToken,
    });

  it('refuses to read a name whose .. segments would leave the prefix, and sends nothing', async () => {
    // Prepare: a blob outside the export's folder, which `focus/../elsewhere/...` would reach
    putBlob('elsewhere/secret.csv', 'not the export');

    // Act
    const reading = blobs().getText('focus/../elsewhere/secret.csv', 1024);
    const opening = async () => {
      const source = blobs().open({ key: 'focus/./../elsewhere/secret.csv', etag: 'x', size: 14 });
      for await (const _ of source.stream()) break;
    };

    // Assess
    await expect(reading).rejects.toThrow(/\. or \.\. segment/);
    await expect(opening()).rejects.toThrow(/\. or \.\. segment/);
    expect(fake.requests).toEqual([]);
  });
});
