import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticateRequest } from '../../shared/app/authenticate';
import type { ContextWith } from '../../shared/app/ports';
import type { AccessTokenVerifier } from '../../shared/auth/access-token-verification';
import {
  authorizerOAuthClientKey,
  authorizerPrincipalKey,
  encodeAuthorizerPrincipal,
} from '../../shared/http/authorizer-context';
import { headerValue } from '../../shared/http/request-headers';

/**
 * What the authorizer runs with: the repositories it reads and writes, and the verifier of access
 * tokens, asked for only when a request presents one.
 */
export interface AuthorizerContext
  extends ContextWith<'orgs' | 'memberships' | 'apiKeys' | 'tokenFamilyRevocations'> {
  readonly accessTokens: () => AccessTokenVerifier;
}

/**
 * API Gateway answers a thrown `Unauthorized` with its UNAUTHORIZED gateway response (401, in
 * the service's error body). Every refusal looks alike: the caller learns nothing about why.
 */
export const unauthorized = 'Unauthorized';

/**
 * The REQUEST authorizer: authenticates the caller and hands its principal to the route's
 * function. It does not decide what the caller may do; use cases do, from stored data.
 * The policy allows exactly the method called: results are not cached (keys are revocable at once).
 * Callers present an API key (`x-api-key`) or a Bearer access token (`Authorization`), verified
 * with the public keys cached in the process (never a KMS call per request).
 * `usageIdentifierKey` names the caller's throttle bucket: the API key API Gateway keeps for our
 * key in the tenants' usage plan, or for a Bearer token the one key the OAuth clients share; the
 * token's client goes on in the context, and the functions throttle per client and org
 * (docs/http.md, "Throttling").
 */
export function createAuthorizerHandler(appContext: () => AuthorizerContext) {
  // The service name comes from POWERTOOLS_SERVICE_NAME, as every function's (docs/architecture.md).
  const logger = new Logger();
  return async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const ctx = appContext();
    const caller = await authenticateRequest(ctx, ctx.accessTokens, {
      apiKey: headerValue(event.headers, 'x-api-key'),
      authorization: headerValue(event.headers, 'authorization'),
    });
    if (!caller) {
      logger.info('refused credentials', { request_id: event.requestContext.requestId });
      throw new Error(unauthorized);
    }
    const { principal } = caller;
    return {
      principalId: principal.kind === 'user' ? `${principal.orgId}/${principal.userId}` : principal.orgId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
      },
      context: {
        [authorizerPrincipalKey]: encodeAuthorizerPrincipal(principal),
        ...(caller.oauthClientId === undefined ? {} : { [authorizerOAuthClientKey]: caller.oauthClientId }),
      },
      usageIdentifierKey: caller.usageIdentifier,
    };
  };
}
