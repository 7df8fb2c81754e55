import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking AWS's JSON protocol (awsJson1_1) for one service: it records each
 * request (target, headers, raw and parsed body) and answers each operation with what the test set,
 * so a real client (or our own call) is exercised on the wire, signing included.
 */

export interface ReceivedAwsRequest {
  readonly method: string;
  readonly path: string;
  /** The operation named by `X-Amz-Target` (`Service.Operation`), the operation part. */
  readonly operation: string;
  readonly target: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly body: Record<string, unknown>;
}

export interface AwsAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface AwsJsonService {
  readonly endpoint: string;
  readonly received: ReceivedAwsRequest[];
  /** What each operation answers next; a function is asked once per request. */
  answers: Record<string, AwsAnswer | (() => AwsAnswer)>;
  close(): Promise<void>;
}

export async function startAwsJsonService(): Promise<AwsJsonService> {
  const received: ReceivedAwsRequest[] = [];
  const service: Omit<AwsJsonService, 'endpoint' | 'close'> = { received, answers: {} };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const target = request.headers['x-amz-target'] as string | undefined;
    const operation = target?.split('.')[1] ?? '';
    received.push({
      method: request.method ?? '',
      path: request.url ?? '',
      operation,
      target,
      headers: request.headers,
      rawBody,
      body: JSON.parse(rawBody || '{}') as Record<string, unknown>,
    });
    const set = service.answers[operation];
    const answer = (typeof set === 'function' ? set() : set) ?? {
      status: 400,
      body: { __type: 'UnknownOperationException' },
    };
    response.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(service, {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

export interface SigV4Check {
  readonly accessKeyId: string;
  readonly region: string;
  readonly service: string;
  /** Whether the signature is the one the secret key gives for this request. */
  readonly valid: boolean;
}

/**
 * Checks a request's SigV4 signature from scratch (the AWS documentation's steps with node:crypto,
 * independent of the SDK's signer): canonical request, string to sign, derived key, HMAC.
 */
export function checkSigV4(request: ReceivedAwsRequest, secretAccessKey: string): SigV4Check {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) throw new Error(`not a SigV4 Authorization header: ${authorization}`);
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
  const amzDate = String(request.headers['x-amz-date']);
  const headerNames = (signedHeaders as string).split(';');
  const canonicalHeaders = headerNames
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const [path, query = ''] = request.path.split('?');
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery(query),
    canonicalHeaders,
    signedHeaders,
    sha256Hex(request.rawBody),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${secretAccessKey}`, date as string);
  for (const part of [region as string, service as string, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    accessKeyId: accessKeyId as string,
    region: region as string,
    service: service as string,
    valid: expected === signature,
  };
}

/** The query as SigV4 signs it: each name and value decoded, then RFC 3986-encoded, sorted by name, then value. */
function canonicalQuery(query: string): string {
  const rfc3986 = (text: string) =>
    encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [name = '', value = ''] = pair
        .split('=')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      return [rfc3986(name), rfc3986(value)] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
