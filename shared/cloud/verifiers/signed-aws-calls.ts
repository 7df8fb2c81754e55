import type { Readable } from 'node:stream';
import { Hash } from '@smithy/hash-node';
import { NodeHttpHandler, streamCollector } from '@smithy/node-http-handler';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import type { ProviderError } from './provider-failure';

/**
 * A SigV4-signed HTTP request to an AWS service, made with the SDK's own signer, hash and HTTP
 * handler: how the AWS checks make the calls they make without the service's SDK client
 * (legacy-cur-reports.ts, s3-object-listing.ts say why for each). Throttling and 5xx answers are
 * tried again, up to `maxAttempts` in all, as the SDK clients' standard retries do.
 */

/** What a caller of one of the services called this way gives, as it would give an SDK client. */
export interface SignedServiceOptions {
  readonly credentials: AwsCredentialIdentity;
  /** The region the service is called in (and signed for). */
  readonly region: string;
  /** The service's URL; tests give a local server's. */
  readonly endpoint?: string;
  /** Attempts in all, as the SDK's `maxAttempts`: throttling and 5xx answers are tried again. */
  readonly maxAttempts?: number;
}

export interface SignedAwsCallsOptions extends Omit<SignedServiceOptions, 'endpoint'> {
  /** The service's SigV4 signing name (`cur`, `s3`). */
  readonly signingName: string;
  /** S3 signs the path as sent; every other service escapes it a second time. */
  readonly s3?: boolean;
}

export interface AwsHttpCall {
  readonly method: 'GET' | 'POST';
  /** The whole URL: its search parameters are the request's query. */
  readonly url: URL;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A service's answer, read whole. */
export interface AwsHttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly text: string;
}

/** Reads a service's error answer as the error its SDK client would throw: AWS's code as the name. */
export type ServiceErrorReader = (answer: AwsHttpAnswer) => ProviderError;

/** A verify is interactive: an answer that does not come within this is a failed check. */
const requestTimeoutMs = 10_000;
/** The SDK's base delay between attempts (its standard retry strategy starts at 100 ms). */
const retryDelayMs = 100;

/** One pool of kept-alive connections for every signed call of the process, as a warm SDK client keeps its own. */
const connections = new NodeHttpHandler({ requestTimeout: requestTimeoutMs });

/** A function making signed calls with these credentials; it answers the body of a 2xx answer and throws the service's error otherwise. */
export function signedAwsCalls(
  options: SignedAwsCallsOptions,
  readError: ServiceErrorReader,
): (call: AwsHttpCall) => Promise<string> {
  const send = signedAwsStreams(options, readError);
  return async (call) => Buffer.from(await streamCollector((await send(call)).body)).toString('utf8');
}

/** A 2xx answer whose body is left unread: the caller reads it as a stream (an S3 object's bytes). */
export interface AwsStreamedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The response stream (Node's IncomingMessage): an async iterable of Buffers. */
  readonly body: Readable;
}

/**
 * As signedAwsCalls, but the body of a 2xx answer is handed over unread, so that a large object
 * streams through with bounded memory; an error answer is read whole and thrown as the service's
 * error (tried again as signedAwsCalls does).
 */
export function signedAwsStreams(
  options: SignedAwsCallsOptions,
  readError: ServiceErrorReader,
): (call: AwsHttpCall) => Promise<AwsStreamedAnswer> {
  const signer = new SignatureV4({
    service: options.signingName,
    region: options.region,
    credentials: options.credentials,
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: !options.s3,
  });
  const maxAttempts = Math.max(1, options.maxAttempts ?? 2);

  return async (call) => {
    for (let attempt = 1; ; attempt++) {
      const request = new HttpRequest({
        method: call.method,
        protocol: call.url.protocol,
        hostname: call.url.hostname,
        ...(call.url.port ? { port: Number(call.url.port) } : {}),
        path: call.url.pathname,
        query: Object.fromEntries(call.url.searchParams),
        headers: {
          host: call.url.host,
          ...call.headers,
          ...(call.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(call.body)) }),
        },
        ...(call.body === undefined ? {} : { body: call.body }),
      });
      const signed = await signer.sign(request);
      const { response } = await connections.handle(signed as HttpRequest);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return { status: response.statusCode, headers: response.headers, body: response.body };
      }
      const text = Buffer.from(await streamCollector(response.body)).toString('utf8');
      const error = readError({ status: response.statusCode, headers: response.headers, text });
      if (attempt >= maxAttempts || !isRetryable(response.statusCode, error.name)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt));
    }
  };
}

function isRetryable(status: number, code: string): boolean {
  return status >= 500 || status === 429 || /Throttl|SlowDown/.test(code);
}
