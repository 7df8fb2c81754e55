import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AzureUsageSubscription } from '../../../shared/app/ports/usage-sync';
import { azureUsageSources } from '../../../shared/cloud/usage-sources/azure-usage-sources';

/**
 * The Azure usage adapter against one loopback HTTP server answering as ARM and Blob Storage do:
 * the subscription's Cost Management exports, reservations (in pages), their orders and savings
 * plans as ARM's JSON, and a storage account's container as Blob Storage's List Blobs XML (two
 * blobs a page, followed by marker) and Get Blob (ranges, If-Match). The server keeps the blobs;
 * a test writes one again to change its ETag.
 */

const tenantId = 'contoso.onmicrosoft.com';
const subscriptionId = '0d6a1c2e-3b4f-4a5d-8e9f-112233445566';
const otherSubscription = '99999999-3b4f-4a5d-8e9f-112233445566';
const storageAccount = 'contosobilling';
const container = 'cost-exports';
const armToken = 'arm-token';
const storageToken = 'storage-token';

interface Blob {
  bytes: Buffer;
  etag: string;
  lastModified: Date;
}

interface ServerState {
  exports: unknown[];
  blobs: Map<string, Blob>;
  reservationPages: unknown[][];
  orders: Record<string, unknown>;
  savingsPlans: unknown[];
  /** An ARM error every ARM call answers. */
  armError: { status: number; code: string } | null;
}

let state: ServerState;
let server: Server;
let baseUrl: string;
const requests: { path: string; headers: IncomingMessage['headers'] }[] = [];
let writes = 0;

function putBlob(
  name: string,
  text: string | Buffer,
  at = new Date(Date.UTC(2026, 6, 2, 6, 0, writes)),
): void {
  writes += 1;
  const bytes = Buffer.from(text);
  state.blobs.set(name, {
    bytes,
    etag: `0x8DC${createHash('md5').update(bytes).update(String(writes)).digest('hex').slice(0, 12).toUpperCase()}`,
    lastModified: at,
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function blobError(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/xml', 'x-ms-error-code': code });
  response.end(
    `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}\nRequestId:1</Message></Error>`,
  );
}

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

function listBlobs(url: URL, response: ServerResponse): void {
  const prefix = url.searchParams.get('prefix') ?? '';
  const names = [...state.blobs.keys()].filter((name) => name.startsWith(prefix)).sort();
  const from = Number(url.searchParams.get('marker') || 0);
  const page = names.slice(from, from + 2);
  const next = from + 2 < names.length ? String(from + 2) : '';
  const blobs = page
    .map((name) => {
      const blob = state.blobs.get(name) as Blob;
      return `<Blob><Name>${escapeXml(name)}</Name><Properties><Creation-Time>${blob.lastModified.toUTCString()}</Creation-Time><Last-Modified>${blob.lastModified.toUTCString()}</Last-Modified><Etag>${blob.etag}</Etag><Content-Length>${blob.bytes.length}</Content-Length><Content-Type>application/octet-stream</Content-Type><BlobType>BlockBlob</BlobType></Properties><OrMetadata /></Blob>`;
    })
    .join('');
  response.writeHead(200, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="${baseUrl}/${storageAccount}/" ContainerName="${container}"><Prefix>${escapeXml(prefix)}</Prefix>${from ? `<Marker>${from}</Marker>` : ''}<MaxResults>2</MaxResults><Blobs>${blobs}</Blobs>${next ? `<NextMarker>${next}</NextMarker>` : '<NextMarker />'}</EnumerationResults>`,
  );
}

function blobRequest(request: IncomingMessage, url: URL, response: ServerResponse): void {
  if (request.headers.authorization !== `Bearer ${storageToken}` || !request.headers['x-ms-version']) {
    blobError(
      response,
      403,
      'AuthorizationPermissionMismatch',
      'This request is not authorized to perform this operation using this permission.',
    );
    return;
  }
  const [, account, containerName, ...rest] = url.pathname.split('/').map(decodeURIComponent);
  if (account !== storageAccount || containerName !== container) {
    blobError(response, 404, 'ContainerNotFound', 'The specified container does not exist.');
    return;
  }
  if (rest.length === 0 && url.searchParams.get('comp') === 'list') {
    listBlobs(url, response);
    return;
  }
  const blob = state.blobs.get(rest.join('/'));
  if (!blob) {
    blobError(response, 404, 'BlobNotFound', 'The specified blob does not exist.');
    return;
  }
  const ifMatch = request.headers['if-match'];
  if (ifMatch && ifMatch !== `"${blob.etag}"`) {
    blobError(
      response,
      412,
      'ConditionNotMet',
      'The condition specified using HTTP conditional header(s) is not met.',
    );
    return;
  }
  const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers['x-ms-range'] ?? ''));
  if (range) {
    const bytes = blob.bytes.subarray(Number(range[1]), Number(range[2]) + 1);
    response.writeHead(206, { etag: `"${blob.etag}"`, 'content-length': bytes.length });
    response.end(bytes);
    return;
  }
  response.writeHead(200, { etag: `"${blob.etag}"`, 'content-length': blob.bytes.length });
  response.end(blob.bytes);
}

function armRequest(request: IncomingMessage, url: URL, response: ServerResponse): void {
  if (request.headers.authorization !== `Bearer ${armToken}`) {
    json(response, 401, {
      error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' },
    });
    return;
  }
  if (state.armError) {
    json(response, state.armError.status, { error: { code: state.armError.code, message: 'refused' } });
    return;
  }
  const path = url.pathname;
  const version = url.searchParams.get('api-version');
  if (
    path === `/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/exports` &&
    version === '2024-08-01'
  ) {
    json(response, 200, { value: state.exports });
  } else if (path === '/providers/Microsoft.Capacity/reservations' && version === '2022-11-01') {
    const page = Number(url.searchParams.get('page') ?? 0);
    const next = page + 1 < state.reservationPages.length;
    json(response, 200, {
      value: state.reservationPages[page] ?? [],
      ...(next ? { nextLink: `${baseUrl}/arm${path}?api-version=2022-11-01&page=${page + 1}` } : {}),
    });
  } else if (
    // ARM's paths are case-insensitive; it answers reservation ids in lower case.
    path.toLowerCase().startsWith('/providers/microsoft.capacity/reservationorders/') &&
    version === '2022-11-01'
  ) {
    const order = state.orders[path.split('/').pop() ?? ''];
    if (url.searchParams.get('$expand') !== 'planInformation' || !order) {
      json(response, 404, { error: { code: 'ReservationOrderNotFound', message: path } });
    } else json(response, 200, order);
  } else if (path === '/providers/Microsoft.BillingBenefits/savingsPlans' && version === '2022-11-01') {
    json(response, 200, { value: state.savingsPlans });
  } else {
    json(response, 404, { error: { code: 'NotFound', message: `no ${path}?api-version=${version}` } });
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', baseUrl);
    requests.push({ path: url.pathname + url.search, headers: request.headers });
    if (url.pathname.startsWith('/arm/')) {
      url.pathname = url.pathname.slice('/arm'.length);
      armRequest(request, url, response);
    } else blobRequest(request, url, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

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
    armEndpoint: `${baseUrl}/arm`,
    blobEndpoint: (account) => `${baseUrl}/${account}`,
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
  state = {
    exports: [focusExport('daily-amortized', 'AmortizedCost'), focusExport('daily-focus')],
    blobs: new Map(),
    reservationPages: [],
    orders: {},
    savingsPlans: [],
    armError: null,
  };
  requests.length = 0;
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
    expect(files[0]?.etag).toBe(state.blobs.get(june[0] as string)?.etag);
    const listings = requests.filter((request) => request.path.includes('comp=list'));
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
    state.reservationPages = [
      [reservation('r-ours', 2, [`/subscriptions/${subscriptionId}`])],
      [
        reservation('r-theirs', 1, [`/subscriptions/${otherSubscription}`]),
        reservation('r-sql', 1, null, 'SqlDatabases'),
      ],
    ];
    state.orders[order] = {
      id: `/providers/microsoft.capacity/reservationOrders/${order}`,
      properties: {
        originalQuantity: 3,
        planInformation: { pricingCurrencyTotal: { currencyCode: 'USD', amount: 3000 } },
      },
    };
    state.savingsPlans = [
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
    expect(requests.filter((request) => request.path.includes('reservationOrders')).length).toBe(1);
  });

  it('refuse a subscription without one FOCUS export, and name ARM and Blob Storage errors by code', async () => {
    // Prepare
    const deniedBlobs = azureUsageSources({
      armTokens: async () => armToken,
      storageTokens: async () => 'a token without Storage Blob Data Reader',
      armEndpoint: `${baseUrl}/arm`,
      blobEndpoint: (account) => `${baseUrl}/${account}`,
    });

    // Act and assess
    state.exports = [focusExport('daily-amortized', 'AmortizedCost')];
    await expect(sources().connect(subscription)).rejects.toThrow(
      `subscription ${subscriptionId} has no FOCUS or actual-cost export`,
    );
    state.exports = [focusExport('daily-focus'), focusExport('monthly-focus')];
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
    state.armError = { status: 403, code: 'AuthorizationFailed' };
    await expect(sources().connect(subscription)).rejects.toMatchObject({ name: 'AuthorizationFailed' });
  });
});
