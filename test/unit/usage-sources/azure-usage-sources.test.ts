import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AzureUsageSubscription } from '../../../shared/app/ports/usage-sync';
import { azureUsageSources } from '../../../shared/cloud/usage-sources/azure-usage-sources';
import {
  armToken,
  container,
  fake,
  otherSubscription,
  putBlob,
  startAzureUsageServer,
  stopAzureUsageServer,
  storageAccount,
  storageToken,
  subscriptionId,
  tenantId,
} from '../../support/azure-usage-server';

/**
 * The Azure usage adapter against one loopback HTTP server answering as ARM and Blob Storage do
 * (test/support/azure-usage-server.ts): the subscription's exports, reservations in pages, their
 * orders and savings plans as ARM's JSON; the export's container as List Blobs XML and Get Blob.
 */

beforeAll(startAzureUsageServer);
afterAll(stopAzureUsageServer);
const focusExport = (name: string, type = 'FocusCost') => ({
  id: `/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/exports/${name}`,
  name,
  type: 'Microsoft.CostManagement/exports',
  properties: {
    format: 'Csv',
    definition: { type, timeframe: 'MonthToDate', dataSet: { granularity: 'Daily' } },
    deliveryInfo: {
      destination: {
        type: 'AzureBlob',
        resourceId: `/subscriptions/${subscriptionId}/resourceGroups/billing/providers/Microsoft.Storage/storageAccounts/${storageAccount}`,
        container,
        rootFolderPath: 'focus',
      },
    },
    partitionData: true,
  },
});

const subscription: AzureUsageSubscription = { tenantId, subscriptionId, exportName: null };

function sources() {
  return azureUsageSources({
    armTokens: async (tenant) => (tenant === tenantId ? armToken : 'wrong'),
    storageTokens: async (tenant) => (tenant === tenantId ? storageToken : 'wrong'),
    armEndpoint: `${fake.baseUrl}/arm`,
    blobEndpoint: (account) => `${fake.baseUrl}/${account}`,
  });
}

/** A run of the export: its data blobs and its manifest.json naming them. */
function deliverRun(range: string, run: string, parts: Record<string, string>, at: Date): string[] {
  const names = Object.keys(parts).map((part) => `focus/daily-focus/${range}/${run}/${part}`);
  for (const [index, name] of names.entries())
    putBlob(name, parts[Object.keys(parts)[index] as string] as string, at);
  putBlob(
    `focus/daily-focus/${range}/${run}/manifest.json`,
    JSON.stringify({
      manifestVersion: '2024-04-01',
      blobCount: names.length,
      exportConfig: { exportName: 'daily-focus', type: 'FocusCost' },
      runInfo: { runId: run, startDate: `${range.slice(0, 4)}-${range.slice(4, 6)}-01T00:00:00` },
      blobs: names.map((blobName) => ({ blobName, byteCount: 1 })),
    }),
    at,
  );
  return names;
}

beforeEach(() => {
  fake.state = {
    exports: [focusExport('daily-amortized', 'AmortizedCost'), focusExport('daily-focus')],
    blobs: new Map(),
    reservationPages: [],
    orders: {},
    savingsPlans: [],
    armError: null,
  };
  fake.requests.length = 0;
});

describe('the Azure usage sources', () => {
  it('list the files of each billing period newest run, page by page', async () => {
    // Prepare: June run twice (the later run holds two files), July once, and a blob outside any run.
    deliverRun(
      '20260601-20260630',
      'run-a',
      { 'part_0_0001.csv': 'old june' },
      new Date('2026-07-01T06:00:00Z'),
    );
    const june = deliverRun(
      '20260601-20260630',
      'run-b',
      { 'part_0_0001.csv': 'june one', 'part_0_0002.csv': 'june two' },
      new Date('2026-07-02T06:00:00Z'),
    );
    const july = deliverRun(
      '20260701-20260731',
      'run-c',
      { 'part_0_0001.csv': 'july' },
      new Date('2026-07-02T07:00:00Z'),
    );
    putBlob('focus/daily-focus/readme.txt', 'not a run');

    // Act
    const files = await (await sources().connect(subscription)).listExportFiles();

    // Assess
    expect(files.map(({ key, billingPeriod, size }) => ({ key, billingPeriod, size }))).toEqual([
      { key: june[0], billingPeriod: '2026-06', size: 8 },
      { key: june[1], billingPeriod: '2026-06', size: 8 },
      { key: july[0], billingPeriod: '2026-07', size: 4 },
    ]);
    expect(files[0]?.etag).toBe(fake.state.blobs.get(june[0] as string)?.etag);
    const listings = fake.requests.filter((request) => request.path.includes('comp=list'));
    // 8 blobs, 2 a page.
    expect(listings.length).toBe(4);
    expect(listings[0]?.path).toContain('prefix=focus%2Fdaily-focus%2F');
    expect(listings[0]?.headers['x-ms-version']).toBe('2023-11-03');
  });

  it('reads a file by range and whole, and fails a read of a file written again since the listing', async () => {
    // Prepare
    const [name] = deliverRun(
      '20260601-20260630',
      'run-a',
      { 'part_0_0001.parquet': 'PAR1 0123456789 PAR1' },
      new Date('2026-07-01T06:00:00Z'),
    );
    const session = await sources().connect(subscription);
    const [file] = await session.listExportFiles();
    if (!file) throw new Error('nothing listed');

    // Act
    const source = session.openExportFile(file);
    const footer = Buffer.from(await source.random.slice(file.size - 4)).toString('utf8');
    const middle = Buffer.from(await source.random.slice(5, 15)).toString('utf8');
    const chunks: Uint8Array[] = [];
    for await (const chunk of source.stream()) chunks.push(chunk);
    putBlob(name as string, 'PAR1 a later run PAR1');
    const stale = source.random.slice(0, 4);

    // Assess
    expect(footer).toBe('PAR1');
    expect(middle).toBe('0123456789');
    expect(Buffer.concat(chunks).toString('utf8')).toBe('PAR1 0123456789 PAR1');
    await expect(stale).rejects.toMatchObject({ name: 'ConditionNotMet' });
  });

  it('map the VM reservations and savings plans this subscription owns, with each order priced in share', async () => {
    // Prepare: an order of 3 D4s v5 for 3,000 split 2 + 1; the 1 scoped to another subscription;
    // a SQL reservation; a savings plan of $2 an hour paid monthly.
    const order = 'a1b2c3d4-0000-4000-8000-000000000001';
    const reservation = (id: string, quantity: number, scope: string[] | null, type = 'VirtualMachines') => ({
      id: `/providers/microsoft.capacity/reservationOrders/${order}/reservations/${id}`,
      location: 'eastus',
      sku: { name: 'Standard_D4s_v5' },
      properties: {
        reservedResourceType: type,
        appliedScopeType: scope ? 'Single' : 'Shared',
        appliedScopes: scope,
        quantity,
        provisioningState: 'Succeeded',
        effectiveDateTime: '2026-01-01T00:00:00Z',
        expiryDateTime: '2027-01-01T00:00:00Z',
        term: 'P1Y',
        billingPlan: 'Upfront',
      },
    });
    fake.state.reservationPages = [
      [reservation('r-ours', 2, [`/subscriptions/${subscriptionId}`])],
      [
        reservation('r-theirs', 1, [`/subscriptions/${otherSubscription}`]),
        reservation('r-sql', 1, null, 'SqlDatabases'),
      ],
    ];
    fake.state.orders[order] = {
      id: `/providers/microsoft.capacity/reservationOrders/${order}`,
      properties: {
        originalQuantity: 3,
        planInformation: { pricingCurrencyTotal: { currencyCode: 'USD', amount: 3000 } },
      },
    };
    fake.state.savingsPlans = [
      {
        id: '/providers/Microsoft.BillingBenefits/savingsPlanOrders/o1/savingsPlans/sp1',
        properties: {
          provisioningState: 'Succeeded',
          appliedScopeType: 'Shared',
          billingPlan: 'P1M',
          term: 'P3Y',
          commitment: { grain: 'Hourly', currencyCode: 'USD', amount: 2 },
          effectiveDateTime: '2026-02-01T00:00:00Z',
          expiryDateTime: '2029-02-01T00:00:00Z',
        },
      },
    ];

    // Act
    const owned = await (await sources().connect(subscription)).ownedCommitments();

    // Assess: 2 of the order's 3 units: 3,000 x 2 / 3 = 2,000 up front.
    expect(
      owned.map(
        ({
          accountId,
          contractType,
          instanceType,
          quantity,
          upfrontCost,
          hourlyCommitment,
          recurringCost,
        }) => ({
          accountId,
          contractType,
          instanceType,
          quantity,
          upfrontCost,
          hourlyCommitment,
          recurringCost,
        }),
      ),
    ).toEqual([
      {
        accountId: subscriptionId,
        contractType: 'vm',
        instanceType: 'Standard_D4s_v5',
        quantity: 2,
        upfrontCost: 2000,
        hourlyCommitment: 0,
        recurringCost: 0,
      },
      {
        accountId: subscriptionId,
        contractType: 'compute_plans',
        instanceType: null,
        quantity: 0,
        upfrontCost: 0,
        hourlyCommitment: 2,
        recurringCost: 2,
      },
    ]);
    expect(fake.requests.filter((request) => request.path.includes('reservationOrders')).length).toBe(1);
  });

  it('refuse a subscription without one FOCUS export, and name ARM and Blob Storage errors by code', async () => {
    // Prepare
    const deniedBlobs = azureUsageSources({
      armTokens: async () => armToken,
      storageTokens: async () => 'a token without Storage Blob Data Reader',
      armEndpoint: `${fake.baseUrl}/arm`,
      blobEndpoint: (account) => `${fake.baseUrl}/${account}`,
    });

    // Act and assess
    fake.state.exports = [focusExport('daily-amortized', 'AmortizedCost')];
    await expect(sources().connect(subscription)).rejects.toThrow(
      `subscription ${subscriptionId} has no FOCUS or actual-cost export`,
    );
    fake.state.exports = [focusExport('daily-focus'), focusExport('monthly-focus')];
    await expect(sources().connect(subscription)).rejects.toThrow(
      'has 2 FOCUS or actual-cost exports (daily-focus, monthly-focus)',
    );
    const named = await sources().connect({ ...subscription, exportName: 'monthly-focus' });
    await expect(named.listExportFiles()).resolves.toEqual([]);
    const denied = await deniedBlobs.connect({ ...subscription, exportName: 'daily-focus' });
    await expect(denied.listExportFiles()).rejects.toMatchObject({
      name: 'AuthorizationPermissionMismatch',
      message: 'This request is not authorized to perform this operation using this permission.',
    });
    fake.state.armError = { status: 403, code: 'AuthorizationFailed' };
    await expect(sources().connect(subscription)).rejects.toMatchObject({ name: 'AuthorizationFailed' });
  });
});
