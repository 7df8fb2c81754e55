import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { InsufficientScopeError, UnauthenticatedError } from '../domain/errors';
import { membershipRoles } from '../domain/orgs';
import { hasScope } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { authorizerPrincipalKey } from './authorizer-context';
import { invalidCredentialsMessage } from './error-response';

/**
 * What the functions accept from the authorizer's context (authorizer-context.ts encodes it);
 * built on the first request, as the contract's schemas are.
 */
const principalSchema = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('user'),
      orgId: z.string().check(z.minLength(1)),
      userId: z.string().check(z.minLength(1)),
      role: z.enum(membershipRoles),
      scopes: z.array(z.string()),
    }),
    z.strictObject({
      kind: z.literal('partner'),
      orgId: z.string().check(z.minLength(1)),
      scopes: z.array(z.string()),
    }),
  ]),
);

/** The principal the authorizer put on the event, or null when there is none or it is not one. */
export function principalFromEvent(event: Pick<APIGatewayProxyEvent, 'requestContext'>): Principal | null {
  const encoded: unknown = event.requestContext?.authorizer?.[authorizerPrincipalKey];
  if (typeof encoded !== 'string') {
    return null;
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(encoded);
  } catch {
    return null;
  }
  const parsed = principalSchema.safeParse(decoded);
  return parsed.success ? parsed.data : null;
}

export interface PrincipalContext {
  /** Who is calling; null on public routes. */
  principal: Principal | null;
}

/**
 * Reads the principal of the request. A route behind the authorizer without a valid principal is
 * answered 401; a public route never gets one, even if the event carries it.
 */
export function authorizerPrincipal(options: {
  required: boolean;
}): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context & PrincipalContext> {
  return {
    before: (request) => {
      if (!options.required) {
        request.context.principal = null;
        return;
      }
      const principal = principalFromEvent(request.event);
      if (principal === null) {
        throw new UnauthenticatedError(invalidCredentialsMessage);
      }
      request.context.principal = principal;
    },
  };
}

/**
 * Refuses a caller whose token lacks the operation's scope (403 `insufficient_scope`), before the
 * operation runs: what the role allows is then the use case's to decide. API keys carry every
 * scope; public operations have no caller and state no scope.
 */
export function requiredScope(
  scope: string | undefined,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context & PrincipalContext> {
  return {
    before: (request) => {
      const { principal } = request.context;
      if (scope !== undefined && principal !== null && !hasScope(principal, scope)) {
        throw new InsufficientScopeError(scope);
      }
    },
  };
}
