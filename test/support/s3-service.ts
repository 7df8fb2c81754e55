import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedAwsRequest } from './aws-json-service';

/**
 * A local HTTP server answering S3's `ListObjectsV2` (REST-XML, path-style addressing) from buckets
 * the test fills: keys under the prefix in order, at most `max-keys`, `IsTruncated` and a
 * `NextContinuationToken` when more remain, `NoSuchBucket` for a bucket it does not hold. Objects
 * given `contents` are listed with their size and MD5 ETag (as S3 gives a single-part upload) and
 * answer `GetObject`, whole or by `Range`, refusing a stale `If-Match` with `PreconditionFailed`. It records each request in the form
 * `checkSigV4` (aws-json-service.ts) reads; `interruptions` answers the next requests first (a
 * throttle, a refusal), one each.
 */
export interface S3Service {
  readonly endpoint: string;
  readonly received: ReceivedAwsRequest[];
  readonly buckets: Map<string, string[]>;
  /** The bytes of objects, by `<bucket>/<key>` (their keys listed in `buckets` too). */
  readonly contents: Map<string, Uint8Array>;
  readonly interruptions: { status: number; body: string }[];
  close(): Promise<void>;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function s3ErrorBody(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`;
}

/** S3's ETag of a single-part upload: the MD5 of its bytes, in hex. */
export function s3Etag(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

function listing(
  bucket: string,
  keys: readonly string[],
  contentOf: (key: string) => Uint8Array | undefined,
  query: URLSearchParams,
): string {
  const prefix = query.get('prefix') ?? '';
  const maxKeys = Number(query.get('max-keys') ?? 1000);
  const after = query.get('continuation-token');
  const under = keys.filter((key) => key.startsWith(prefix) && (after === null || key > after)).sort();
  const page = under.slice(0, maxKeys);
  const contents = page
    .map((key) => {
      const bytes = contentOf(key);
      const etag = bytes ? s3Etag(bytes) : '9b2cf535f27731c974343645a3985328';
      return `<Contents><Key>${escapeXml(key)}</Key><LastModified>2026-11-01T04:12:09.000Z</LastModified><ETag>&quot;${etag}&quot;</ETag><Size>${bytes?.length ?? 1024}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    })
    .join('');
  const truncated = under.length > page.length;
  const next = truncated
    ? `<NextContinuationToken>${escapeXml(page.at(-1) ?? '')}</NextContinuationToken>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`;
}

/** `GetObject`: the bytes, or the `bytes=a-b` range of them (206), unless `If-Match` names another ETag. */
function getObject(
  bytes: Uint8Array,
  headers: IncomingHttpHeaders,
): { status: number; body: Uint8Array | string; headers: Record<string, string> } {
  const etag = s3Etag(bytes);
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined && ifMatch.replace(/"/g, '') !== etag) {
    return {
      status: 412,
      body: s3ErrorBody(
        'PreconditionFailed',
        'At least one of the pre-conditions you specified did not hold',
      ),
      headers: { 'content-type': 'application/xml' },
    };
  }
  const range = /^bytes=(\d+)-(\d+)$/.exec(String(headers.range ?? ''));
  if (!range) return { status: 200, body: bytes, headers: { etag: `"${etag}"` } };
  const start = Number(range[1]);
  const end = Math.min(Number(range[2]), bytes.length - 1);
  return {
    status: 206,
    body: bytes.subarray(start, end + 1),
    headers: { etag: `"${etag}"`, 'content-range': `bytes ${start}-${end}/${bytes.length}` },
  };
}

export async function startS3Service(): Promise<S3Service> {
  const received: ReceivedAwsRequest[] = [];
  const buckets = new Map<string, string[]>();
  const contents = new Map<string, Uint8Array>();
  const interruptions: { status: number; body: string }[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://s3.local');
    const listsObjects = request.method === 'GET' && url.searchParams.get('list-type') === '2';
    received.push({
      method: request.method ?? '',
      path: request.url ?? '',
      operation: listsObjects ? 'ListObjectsV2' : request.method === 'GET' ? 'GetObject' : '',
      target: undefined,
      headers: request.headers,
      rawBody,
      body: {},
    });
    const answer = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/xml' });
      response.end(body);
    };
    const interruption = interruptions.shift();
    if (interruption) return answer(interruption.status, interruption.body);
    const [bucketPath = '', ...keyPath] = url.pathname.slice(1).split('/');
    const bucket = decodeURIComponent(bucketPath);
    const keys = buckets.get(bucket);
    if (request.method !== 'GET')
      return answer(405, s3ErrorBody('MethodNotAllowed', 'only ListObjectsV2 and GetObject are served here'));
    if (!keys) return answer(404, s3ErrorBody('NoSuchBucket', 'The specified bucket does not exist'));
    if (listsObjects) {
      return answer(
        200,
        listing(bucket, keys, (key) => contents.get(`${bucket}/${key}`), url.searchParams),
      );
    }
    const key = keyPath.map(decodeURIComponent).join('/');
    const bytes = keys.includes(key) ? contents.get(`${bucket}/${key}`) : undefined;
    if (!bytes) return answer(404, s3ErrorBody('NoSuchKey', 'The specified key does not exist.'));
    const got = getObject(bytes, request.headers);
    response.writeHead(got.status, got.headers);
    response.end(got.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    buckets,
    contents,
    interruptions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
