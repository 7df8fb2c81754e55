import type { OAuthScope } from './scopes';

/**
 * What the authorization server stores (docs/data-model.md and §10; docs/oauth.md). Secrets (client
 * secrets, codes, refresh tokens, session ids, one-time codes) are stored as their SHA-256 only.
 */

/** Lifetimes, in seconds. */
export const oauthLifetimes = {
  /** A validated authorization request waits this long for sign-in and consent. */
  authorizationRequest: 600,
  /** An authorization code (RFC 9700 §4.1.2 asks for a short one). */
  authorizationCode: 60,
  /** A one-time sign-in code sent by e-mail. */
  signInCode: 600,
  /** A signed-in browser session of the sign-in pages. */
  session: 3600,
  /** A refresh token unused this long expires (each use rotates it, restarting the clock). */
  refreshIdle: 30 * 86_400,
  /** A refresh-token family ends this long after its authorization, however used. */
  refreshAbsolute: 90 * 86_400,
} as const;

/** Wrong one-time codes a sign-in may try before it must ask for a new code. */
export const signInCodeAttempts = 5;

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface OAuthClient {
  readonly clientId: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly authMethod: ClientAuthMethod;
  /** Hex SHA-256 of the secret of a confidential client; null for public clients. */
  readonly secretHash: string | null;
  /** Registered by an operator, or by anyone through RFC 7591 (its name is then unverified). */
  readonly registration: 'operator' | 'dynamic';
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** A validated authorization request (#1), kept server-side while the user signs in and consents. */
export interface AuthorizationRequest {
  readonly requestId: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly OAuthScope[];
  readonly state: string | null;
  readonly codeChallenge: string;
  /** The audience of the tokens (RFC 8707). */
  readonly resource: string;
  readonly expiresAt: string;
}

/** An authorization code, stored under its hash; `familyId` names the tokens it will issue. */
export interface AuthorizationCode {
  readonly codeHash: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly email: string;
  readonly orgId: string;
  readonly scopes: readonly OAuthScope[];
  readonly resource: string;
  readonly familyId: string;
  readonly expiresAt: string;
  /** When it was exchanged: a second exchange is a replay. */
  readonly usedAt: string | null;
}

/** The tokens of one authorization: revoking the family refuses every token issued in it. */
export interface TokenFamily {
  readonly familyId: string;
  readonly clientId: string;
  readonly email: string;
  readonly orgId: string;
  readonly scopes: readonly OAuthScope[];
  readonly resource: string;
  readonly createdAt: string;
  /** The absolute end of its refresh tokens. */
  readonly expiresAt: string;
  readonly revoked: boolean;
  readonly revokedAt: string | null;
}

export interface RefreshToken {
  readonly tokenHash: string;
  readonly familyId: string;
  readonly clientId: string;
  readonly createdAt: string;
  /** Idle expiry: issue time plus `refreshIdle`. */
  readonly expiresAt: string;
  /** When it was used (and replaced): a second use is a reuse. */
  readonly rotatedAt: string | null;
}

/** A browser session of the sign-in pages, stored under the hash of its cookie's value. */
export interface SignInSession {
  readonly sessionHash: string;
  /** The CSRF token every form of the session posts. */
  readonly csrfToken: string;
  /** The signed-in user; null before the one-time code was entered. */
  readonly email: string | null;
  /** The address a one-time code was sent to, awaiting the code. */
  readonly pendingEmail: string | null;
  readonly expiresAt: string;
}

/** A one-time sign-in code of an authorization request, stored under the request's id. */
export interface SignInCode {
  readonly requestId: string;
  readonly email: string;
  readonly codeHash: string;
  readonly attempts: number;
  readonly expiresAt: string;
}

export function secondsAfter(at: Date, seconds: number): string {
  return new Date(at.getTime() + seconds * 1000).toISOString();
}

export function hasExpired(expiresAt: string, now: Date): boolean {
  return Date.parse(expiresAt) <= now.getTime();
}
