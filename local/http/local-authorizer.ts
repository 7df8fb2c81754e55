import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { oauthClientsUsageIdentifier } from '../../shared/auth/api-keys';
import { authorizerOAuthClientKey, authorizerPrincipalKey } from '../../shared/http/authorizer-context';
import type { LocalAuthorization } from './local-server';
import type { TenantRateLimiter } from './tenant-rate-limiter';

export type RequestAuthorizer = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

/** API Gateway's usage plan throttling, for the local server: buckets by usage identifier, and a clock. */
export interface LocalUsagePlan {
  readonly limiter: TenantRateLimiter;
  readonly nowMs: () => number;
}

/**
 * Runs a REQUEST authorizer the way API Gateway does for the local server: builds the authorizer
 * event from the proxy event, treats a throw or a Deny as a refusal, passes the principal on and,
 * given a usage plan, throttles by the authorizer's `usageIdentifierKey`. Like API Gateway with
 * `apiKeyRequired`, an Allow without a usage identifier is refused. The OAuth clients' shared
 * identifier is not throttled per key, as its usage plan on AWS has no throttle of its own: the
 * group handlers count Bearer requests per client and org (shared/http/bearer-throttle.ts).
 */
export function localAuthorization(authorizer: RequestAuthorizer, usagePlan?: LocalUsagePlan) {
  return async (event: APIGatewayProxyEvent): Promise<LocalAuthorization> => {
    const { requestContext } = event;
    const methodArn = `arn:aws:execute-api:local:000000000000:local/${requestContext.stage}/${event.httpMethod}${event.path}`;
    let result: APIGatewayAuthorizerResult;
    try {
      result = await authorizer({
        type: 'REQUEST',
        methodArn,
        resource: event.resource,
        path: event.path,
        httpMethod: event.httpMethod,
        headers: event.headers,
        multiValueHeaders: event.multiValueHeaders,
        pathParameters: event.pathParameters,
        queryStringParameters: event.queryStringParameters,
        multiValueQueryStringParameters: event.multiValueQueryStringParameters,
        stageVariables: null,
        requestContext: { ...requestContext, authorizer: undefined },
      });
    } catch {
      return 'unauthorized';
    }
    const allowed = result.policyDocument.Statement.every((statement) => statement.Effect === 'Allow');
    const principal = result.context?.[authorizerPrincipalKey];
    if (!allowed || typeof principal !== 'string') return 'unauthorized';
    const oauthClient = result.context?.[authorizerOAuthClientKey];
    const allowedCaller = typeof oauthClient === 'string' ? { principal, oauthClient } : { principal };
    if (usagePlan === undefined) return allowedCaller;
    const usageIdentifier = result.usageIdentifierKey;
    if (!usageIdentifier) return 'unauthorized';
    if (usageIdentifier === oauthClientsUsageIdentifier) return allowedCaller;
    return usagePlan.limiter.admit(usageIdentifier, usagePlan.nowMs()) ? allowedCaller : 'throttled';
  };
}
