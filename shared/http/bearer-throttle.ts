import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RequestThrottle } from '../app/ports/request-throttle';
import { TooManyRequestsError } from '../domain/errors';
import { authorizerOAuthClientKey } from './authorizer-context';
import type { PrincipalContext } from './authorizer-principal';

/**
 * Throttles Bearer requests per OAuth client and org (docs/http.md, "Throttling"): one tenant's
 * burst through a public client shared by many must not cost another tenant its requests. The
 * org is the token's, the tenant that sends the requests, not the one a path names: a caller
 * choosing the path could otherwise spend another org's budget with requests that end in 404.
 * API-key requests are left to API Gateway's per-key throttle: the authorizer names an OAuth
 * client only for Bearer tokens. One conditional write per Bearer request; a refused one answers
 * 429 with `Retry-After`.
 */
export function bearerThrottle(
  throttle: () => RequestThrottle,
  now: () => Date = () => new Date(),
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context & PrincipalContext> {
  return {
    before: async (request) => {
      const clientId: unknown = request.event.requestContext?.authorizer?.[authorizerOAuthClientKey];
      const principal = request.context.principal;
      if (typeof clientId !== 'string' || clientId === '' || principal === null) return;
      const decision = await throttle().admit({ clientId, orgId: principal.orgId }, now());
      if (!decision.admitted) {
        throw new TooManyRequestsError(
          'Too many requests from this OAuth client for this organization; retry after a moment.',
          decision.retryAfterSeconds,
        );
      }
    },
  };
}
