import type { AuthorizationRequest, SignInCode, SignInSession } from '../../domain/oauth/records';
import type { OAuthScope } from '../../domain/oauth/scopes';
import { normalizeEmail } from '../../domain/orgs';
import { epochSeconds, isoTime } from '../rate-counters';
import type { StoredItem } from '../table-client';

/** The sign-in items (docs/data-model.md, OAuth) as the sign-in repository (sign-ins.ts) reads and writes them. */

export function toRequestItem(request: AuthorizationRequest): StoredItem {
  return {
    type: 'oauth_request',
    version: 1,
    requestId: request.requestId,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    scopes: [...request.scopes],
    state: request.state ?? undefined,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    expiresAt: epochSeconds(request.expiresAt),
  };
}

export function toRequest(item: StoredItem): AuthorizationRequest {
  return {
    requestId: item.requestId as string,
    clientId: item.clientId as string,
    redirectUri: item.redirectUri as string,
    scopes: item.scopes as OAuthScope[],
    state: (item.state as string | undefined) ?? null,
    codeChallenge: item.codeChallenge as string,
    resource: item.resource as string,
    expiresAt: isoTime(item.expiresAt),
  };
}

export function toSessionItem(session: SignInSession): StoredItem {
  return {
    type: 'oauth_session',
    version: 1,
    csrfToken: session.csrfToken,
    email: session.email ?? undefined,
    pendingEmail: session.pendingEmail ?? undefined,
    expiresAt: epochSeconds(session.expiresAt),
  };
}

export function toSession(sessionHash: string, item: StoredItem): SignInSession {
  return {
    sessionHash,
    csrfToken: item.csrfToken as string,
    email: (item.email as string | undefined) ?? null,
    pendingEmail: (item.pendingEmail as string | undefined) ?? null,
    expiresAt: isoTime(item.expiresAt),
  };
}

export function toSignInCodeItem(code: SignInCode): StoredItem {
  return {
    type: 'oauth_sign_in_code',
    version: 1,
    email: normalizeEmail(code.email),
    codeHash: code.codeHash,
    attempts: code.attempts,
    expiresAt: epochSeconds(code.expiresAt),
  };
}

export function toSignInCode(requestId: string, item: StoredItem): SignInCode {
  return {
    requestId,
    email: item.email as string,
    codeHash: item.codeHash as string,
    attempts: Number(item.attempts),
    expiresAt: isoTime(item.expiresAt),
  };
}
