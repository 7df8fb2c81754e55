import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One loopback HTTP server answering as ARM and Blob Storage do, for the Azure usage adapter:
 * the subscription's Cost Management exports, reservations (in pages), their orders and savings
 * plans as ARM's JSON, and a storage account's container as Blob Storage's List Blobs XML (two
 * blobs a page, followed by marker) and Get Blob (ranges, If-Match). The server keeps the blobs;
 * a test writes one again to change its ETag.
 */

export const tenantId = 'contoso.onmicrosoft.com';
export const subscriptionId = '0d6a1c2e-3b4f-4a5d-8e9f-112233445566';
export const otherSubscription = '99999999-3b4f-4a5d-8e9f-112233445566';
export const storageAccount = 'contosobilling';
export const container = 'cost-exports';
export const armToken = 'arm-token';
export const storageToken = 'storage-token';

interface Blob {
  bytes: Buffer;
  etag: string;
  lastModified: Date;
}

export interface ServerState {
  exports: unknown[];
  blobs: Map<string, Blob>;
  reservationPages: unknown[][];
  orders: Record<string, unknown>;
  savingsPlans: unknown[];
  /** An ARM error every ARM call answers. */
  armError: { status: number; code: string } | null;
  /** Where the reservations' `nextLink` points (a hostile ARM answer); this server's ARM by default. */
  nextLinkBase?: string;
}

/** What the server answers (a test replaces `fake.state`), the requests it saw, and where it listens. */
export const fake: {
  state: ServerState;
  readonly requests: { path: string; headers: IncomingMessage['headers'] }[];
  baseUrl: string;
} = {
  state: {
    exports: [],
    blobs: new Map(),
    reservationPages: [],
    orders: {},
    savingsPlans: [],
    armError: null,
  },
  requests: [],
  baseUrl: '',
};
let server: Server;
let writes = 0;

export function putBlob(
  name: string,
  text: string | Buffer,
  at = new Date(Date.UTC(2026, 6, 2, 6, 0, writes)),
): void {
  writes += 1;
  const bytes = Buffer.from(text);
  fake.state.blobs.set(name, {
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
  const names = [...fake.state.blobs.keys()].filter((name) => name.startsWith(prefix)).sort();
  const from = Number(url.searchParams.get('marker') || 0);
  const page = names.slice(from, from + 2);
  const next = from + 2 < names.length ? String(from + 2) : '';
  const blobs = page
    .map((name) => {
      const blob = fake.state.blobs.get(name) as Blob;
      return `<Blob><Name>${escapeXml(name)}</Name><Properties><Creation-Time>${blob.lastModified.toUTCString()}</Creation-Time><Last-Modified>${blob.lastModified.toUTCString()}</Last-Modified><Etag>${blob.etag}</Etag><Content-Length>${blob.bytes.length}</Content-Length><Content-Type>application/octet-stream</Content-Type><BlobType>BlockBlob</BlobType></Properties><OrMetadata /></Blob>`;
    })
    .join('');
  response.writeHead(200, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="${fake.baseUrl}/${storageAccount}/" ContainerName="${container}"><Prefix>${escapeXml(prefix)}</Prefix>${from ? `<Marker>${from}</Marker>` : ''}<MaxResults>2</MaxResults><Blobs>${blobs}</Blobs>${next ? `<NextMarker>${next}</NextMarker>` : '<NextMarker />'}</EnumerationResults>`,
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
  const blob = fake.state.blobs.get(rest.join('/'));
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
  if (fake.state.armError) {
    json(response, fake.state.armError.status, {
      error: { code: fake.state.armError.code, message: 'refused' },
    });
    return;
  }
  const path = url.pathname;
  const version = url.searchParams.get('api-version');
  if (
    path === `/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/exports` &&
    version === '2024-08-01'
  ) {
    json(response, 200, { value: fake.state.exports });
  } else if (path === '/providers/Microsoft.Capacity/reservations' && version === '2022-11-01') {
    const page = Number(url.searchParams.get('page') ?? 0);
    const next = page + 1 < fake.state.reservationPages.length;
    json(response, 200, {
      value: fake.state.reservationPages[page] ?? [],
      ...(next
        ? {
            nextLink: `${fake.state.nextLinkBase ?? `${fake.baseUrl}/arm`}${path}?api-version=2022-11-01&page=${page + 1}`,
          }
        : {}),
    });
  } else if (
    // ARM's paths are case-insensitive; it answers reservation ids in lower case.
    path.toLowerCase().startsWith('/providers/microsoft.capacity/reservationorders/') &&
    version === '2022-11-01'
  ) {
    const order = fake.state.orders[path.split('/').pop() ?? ''];
    if (url.searchParams.get('$expand') !== 'planInformation' || !order) {
      json(response, 404, { error: { code: 'ReservationOrderNotFound', message: path } });
    } else json(response, 200, order);
  } else if (path === '/providers/Microsoft.BillingBenefits/savingsPlans' && version === '2022-11-01') {
    json(response, 200, { value: fake.state.savingsPlans });
  } else {
    json(response, 404, { error: { code: 'NotFound', message: `no ${path}?api-version=${version}` } });
  }
}

export async function startAzureUsageServer(): Promise<void> {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', fake.baseUrl);
    fake.requests.push({ path: url.pathname + url.search, headers: request.headers });
    if (url.pathname.startsWith('/arm/')) {
      url.pathname = url.pathname.slice('/arm'.length);
      armRequest(request, url, response);
    } else blobRequest(request, url, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function stopAzureUsageServer(): Promise<void> {
  await new Promise((resolve) => server.close(resolve));
}
