import { ProviderError } from './provider-failure';
import { type AwsHttpAnswer, type SignedServiceOptions, signedAwsCalls } from './signed-aws-calls';

/**
 * The one call the AWS checks make to the legacy Cost and Usage Reports service (CUR):
 * `DescribeReportDefinitions`, in AWS's JSON protocol (awsJson1_1), signed with SigV4 by the SDK's
 * own signer and sent by its own HTTP handler (signed-aws-calls.ts). Why not `@aws-sdk/client-cost-and-usage-report-service`:
 * the registry we install from holds it only at 3.332, a generation older than every other client,
 * carrying its own SDK core, credential chain and STS/SSO clients, a large part of the verify
 * function's bundle and module init (figures: docs/benchmarks.md, Cold start). Everything but the
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

/** CUR answers in us-east-1 only. */
export type LegacyCurReportsOptions = SignedServiceOptions;

const serviceTarget = 'AWSOrigamiServiceGatewayService';

export function legacyCurReports(options: LegacyCurReportsOptions): LegacyCurReports {
  const url = new URL(options.endpoint ?? `https://cur.${options.region}.amazonaws.com`);
  const send = signedAwsCalls({ ...options, signingName: 'cur' }, serviceErrorOf);

  async function call(operation: string, input: Record<string, unknown>): Promise<unknown> {
    const text = await send({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `${serviceTarget}.${operation}`,
      },
      body: JSON.stringify(input),
    });
    return text ? JSON.parse(text) : {};
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
function serviceErrorOf({ status, headers, text }: AwsHttpAnswer): ProviderError {
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
