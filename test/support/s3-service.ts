import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedAwsRequest } from './aws-json-service';

/**
 * A local HTTP server answering S3's `ListObjectsV2` (REST-XML, path-style addressing) from buckets
 * the test fills: keys under the prefix in order, at most `max-keys`, `IsTruncated` when more
 * remain, `NoSuchBucket` for a bucket it does not hold. It records each request in the form
 * `checkSigV4` (aws-json-service.ts) reads; `interruptions` answers the next requests first (a
 * throttle, a refusal), one each.
 */
export interface S3Service {
  readonly endpoint: string;
  readonly received: ReceivedAwsRequest[];
  readonly buckets: Map<string, string[]>;
  readonly interruptions: { status: number; body: string }[];
  close(): Promise<void>;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function s3ErrorBody(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`;
}

function listing(bucket: string, keys: readonly string[], prefix: string, maxKeys: number): string {
  const under = keys.filter((key) => key.startsWith(prefix)).sort();
  const page = under.slice(0, maxKeys);
  const contents = page
    .map(
      (key) =>
        `<Contents><Key>${escapeXml(key)}</Key><LastModified>2026-11-01T04:12:09.000Z</LastModified><ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>1024</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${under.length > page.length}</IsTruncated>${contents}</ListBucketResult>`;
}

export async function startS3Service(): Promise<S3Service> {
  const received: ReceivedAwsRequest[] = [];
  const buckets = new Map<string, string[]>();
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
      operation: listsObjects ? 'ListObjectsV2' : '',
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
    const bucket = decodeURIComponent(url.pathname.slice(1));
    const keys = buckets.get(bucket);
    if (!listsObjects)
      return answer(405, s3ErrorBody('MethodNotAllowed', 'only ListObjectsV2 is served here'));
    if (!keys) return answer(404, s3ErrorBody('NoSuchBucket', 'The specified bucket does not exist'));
    const maxKeys = Number(url.searchParams.get('max-keys') ?? 1000);
    return answer(200, listing(bucket, keys, url.searchParams.get('prefix') ?? '', maxKeys));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    buckets,
    interruptions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
