import { Hash } from '@smithy/hash-node';
import { NodeHttpHandler, streamCollector } from '@smithy/node-http-handler';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import { ProviderError } from './provider-failure';

/**
 * The one call the AWS checks make to the legacy Cost and Usage Reports service (CUR):
 * `DescribeReportDefinitions`, in AWS's JSON protocol (awsJson1_1), signed with SigV4 by the SDK's
 * own signer and sent by its own HTTP handler. Why not `@aws-sdk/client-cost-and-usage-report-service`:
 * the registry we install from holds it only at 3.332, a generation older than every other client,
 * carrying its own SDK core, credential chain and STS/SSO clients: 167 KB of the verify function's
 * bundle and a sixth of its module init (measured with `npm run bench:cold`). Everything but the
 * operation's shape stays the SDK's: signing, hashing, the HTTP connection.
 */

/** A report definition as the service answers it (the fields the checks read). */
export interface LegacyReportDefinition {
  readonly ReportName?: string;
  readonly TimeUnit?: string;
  readonly Format?: string;
  readonly AdditionalSchemaElements?: readonly string[];
  readonly S3Bucket?: string;
  readonly S3Prefix?: string;
  readonly S3Region?: string;
}

export interface ReportDefinitionsPage {
  readonly ReportDefinitions?: readonly LegacyReportDefinition[];
  readonly NextToken?: string;
}

export interface LegacyCurReports {
  /** One page of the account's report definitions; AWS's errors thrown with their code as `name`. */
  describeReportDefinitions(nextToken?: string): Promise<ReportDefinitionsPage>;
}

export interface LegacyCurReportsOptions {
  readonly credentials: AwsCredentialIdentity;
  /** CUR answers in us-east-1 only. */
  readonly region: string;
  /** The service's URL; tests give a local server's. */
  readonly endpoint?: string;
  /** Attempts in all, as the SDK's `maxAttempts`: throttling and 5xx answers are tried again. */
  readonly maxAttempts?: number;
}

const serviceTarget = 'AWSOrigamiServiceGatewayService';
/** The SigV4 signing name of the service. */
const signingName = 'cur';
/** A verify is interactive: an answer that does not come within this is a failed check. */
const requestTimeoutMs = 10_000;
/** The SDK's base delay between attempts (its standard retry strategy starts at 100 ms). */
const retryDelayMs = 100;

export function legacyCurReports(options: LegacyCurReportsOptions): LegacyCurReports {
  const url = new URL(options.endpoint ?? `https://cur.${options.region}.amazonaws.com`);
  const signer = new SignatureV4({
    service: signingName,
    region: options.region,
    credentials: options.credentials,
    sha256: Hash.bind(null, 'sha256'),
  });
  const handler = new NodeHttpHandler({ requestTimeout: requestTimeoutMs });
  const maxAttempts = Math.max(1, options.maxAttempts ?? 2);

  async function call(operation: string, input: Record<string, unknown>): Promise<unknown> {
    const body = JSON.stringify(input);
    for (let attempt = 1; ; attempt++) {
      const request = new HttpRequest({
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: '/',
        headers: {
          host: url.host,
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `${serviceTarget}.${operation}`,
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      });
      const signed = await signer.sign(request);
      const { response } = await handler.handle(signed as HttpRequest);
      const text = Buffer.from(await streamCollector(response.body)).toString('utf8');
      if (response.statusCode >= 200 && response.statusCode < 300) return text ? JSON.parse(text) : {};
      const error = serviceErrorOf(response.statusCode, response.headers, text);
      if (attempt >= maxAttempts || !isRetryable(response.statusCode, error.name)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt));
    }
  }

  return {
    async describeReportDefinitions(nextToken) {
      return (await call(
        'DescribeReportDefinitions',
        nextToken ? { NextToken: nextToken } : {},
      )) as ReportDefinitionsPage;
    },
  };
}

/**
 * AWS's JSON protocol names the error in `x-amzn-errortype` or the body's `__type`, either possibly
 * prefixed by a namespace (`...#`) or followed by a URI (`:http...`); the code alone is the name.
 */
function serviceErrorOf(
  status: number,
  headers: Record<string, string | undefined>,
  text: string,
): ProviderError {
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = text ? JSON.parse(text) : {};
    if (value !== null && typeof value === 'object') parsed = value as Record<string, unknown>;
  } catch {
    // A body that is not JSON (a proxy's page) still yields an error named by its status.
  }
  const typed =
    headers['x-amzn-errortype'] ?? (typeof parsed.__type === 'string' ? parsed.__type : undefined);
  const code =
    typed?.split(':')[0]?.split('#').pop() || (status >= 500 ? 'InternalFailure' : `Http${status}`);
  const message = [parsed.message, parsed.Message].find((each) => typeof each === 'string') as
    | string
    | undefined;
  return new ProviderError(code, message ?? `${code} (HTTP ${status})`);
}

function isRetryable(status: number, code: string): boolean {
  return status >= 500 || status === 429 || /Throttl/.test(code);
}
