import { OAuthError, type OAuthErrorCode } from '../../domain/oauth/errors';
import { isS256Challenge } from '../../domain/oauth/pkce';
import {
  type AuthorizationRequest,
  hasExpired,
  type OAuthClient,
  oauthLifetimes,
  secondsAfter,
} from '../../domain/oauth/records';
import { matchesRegisteredRedirect, redirectUriProblem } from '../../domain/oauth/redirect-uris';
import { parseScope } from '../../domain/oauth/scopes';
import type { ContextWith } from '../ports';
import type { OAuthContext } from './oauth-context';

/**
 * #1, the authorization endpoint (docs/oauth.md, RFC 9700): the client and its redirect URI are
 * checked first, and while either is in doubt nothing is redirected anywhere (an error page);
 * every later error goes back to the client with `error`, `state` and `iss` (RFC 9207). A valid
 * request is stored server-side and the browser goes to the consent page with its id only.
 */

/** The authorization request's parameters as they came (unknown ones ignored, RFC 6749 §3.1). */
export interface AuthorizeParameters {
  readonly client_id?: string | undefined;
  readonly redirect_uri?: string | undefined;
  readonly response_type?: string | undefined;
  readonly scope?: string | undefined;
  readonly state?: string | undefined;
  readonly code_challenge?: string | undefined;
  readonly code_challenge_method?: string | undefined;
  readonly resource?: string | undefined;
}

export type AuthorizeOutcome =
  /** The client or its redirect URI is not known: say so to the user, redirect nowhere. */
  | { readonly kind: 'error-page'; readonly message: string }
  /** Back to the client (an error, or later the code). */
  | { readonly kind: 'redirect'; readonly location: string }
  /** On to the consent page. */
  | { readonly kind: 'consent'; readonly requestId: string };

export async function startAuthorization(
  ctx: ContextWith<'signIns'> & Pick<OAuthContext, 'issuer'>,
  params: AuthorizeParameters,
): Promise<AuthorizeOutcome> {
  const client = params.client_id === undefined ? null : await ctx.repos.signIns.getClient(params.client_id);
  if (client === null || client.revokedAt !== null) {
    return { kind: 'error-page', message: 'The application that sent you here is not registered.' };
  }
  if (
    params.redirect_uri === undefined ||
    !matchesRegisteredRedirect(client.redirectUris, params.redirect_uri) ||
    // A URI stored before today's rules (a port of 0 or with leading zeros): refused, not followed.
    redirectUriProblem(params.redirect_uri) !== null
  ) {
    return {
      kind: 'error-page',
      message: 'The application asked to send you back to an address it did not register.',
    };
  }
  const redirectUri = params.redirect_uri;
  const refuse = (error: OAuthErrorCode, description: string): AuthorizeOutcome => ({
    kind: 'redirect',
    location: authorizationResponse(ctx.issuer, redirectUri, {
      error,
      error_description: description,
      state: params.state,
    }),
  });
  if (params.response_type !== 'code') {
    return refuse('unsupported_response_type', 'Only response_type=code is supported.');
  }
  if (params.code_challenge_method !== 'S256') {
    return refuse(
      'invalid_request',
      params.code_challenge_method === undefined && params.code_challenge === undefined
        ? 'PKCE is required: send code_challenge and code_challenge_method=S256.'
        : 'code_challenge_method must be S256.',
    );
  }
  if (params.code_challenge === undefined || !isS256Challenge(params.code_challenge)) {
    return refuse('invalid_request', 'code_challenge must be the BASE64URL SHA-256 of the code verifier.');
  }
  const scopes = parseScope(params.scope);
  if (scopes === null)
    return refuse('invalid_scope', 'The request names a scope this server does not grant.');
  const resource = params.resource ?? ctx.issuer;
  if (resource !== ctx.issuer) return refuse('invalid_target', `resource must be ${ctx.issuer}.`);

  const request: AuthorizationRequest = {
    requestId: ctx.ids.uuid(),
    clientId: client.clientId,
    redirectUri,
    scopes,
    state: params.state ?? null,
    codeChallenge: params.code_challenge,
    resource,
    expiresAt: secondsAfter(ctx.clock.now(), oauthLifetimes.authorizationRequest),
  };
  await ctx.repos.signIns.putRequest(request);
  return { kind: 'consent', requestId: request.requestId };
}

/**
 * The redirect back to the client (RFC 6749 §4.1.2, RFC 9207): the parameters are added to the
 * redirect URI's query, `iss` always.
 */
export function authorizationResponse(
  issuer: string,
  redirectUri: string,
  params: Readonly<Record<string, string | null | undefined>>,
): string {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    // Fails closed: a stored URI the parser refuses is a 400 page, never a 500 or a redirect.
    throw new OAuthError('invalid_request', 'The application registered an address that cannot be used.');
  }
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) url.searchParams.append(name, value);
  }
  url.searchParams.append('iss', issuer);
  return url.href;
}

/** A pending request and its client, while both are still valid. */
export interface PendingAuthorization {
  readonly request: AuthorizationRequest;
  readonly client: OAuthClient;
}

/** The pending request `requestId` and its client; an OAuthError when either is gone or expired. */
export async function pendingAuthorization(
  ctx: ContextWith<'signIns'>,
  requestId: string,
): Promise<PendingAuthorization> {
  const request = await ctx.repos.signIns.getRequest(requestId);
  if (request === null || hasExpired(request.expiresAt, ctx.clock.now())) {
    throw new OAuthError(
      'invalid_request',
      'This sign-in request has expired or was completed. Go back to the application and start again.',
    );
  }
  const client = await ctx.repos.signIns.getClient(request.clientId);
  if (client === null || client.revokedAt !== null) {
    throw new OAuthError('invalid_request', 'The application is no longer registered.');
  }
  return { request, client };
}
