import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * API keys (docs/http.md): `cpk_<keyId>_<secret>`, keyId 16 and secret 40 base62 characters.
 * Only the SHA-256 of the secret is stored, under the key id; the full key is shown once.
 * A key belongs to a user (a member of one org) or to a partner org.
 */

export type ApiKeyOwner =
  | { readonly kind: 'user'; readonly orgId: string; readonly email: string }
  | { readonly kind: 'partner'; readonly orgId: string };

export interface ApiKeyRecord {
  readonly keyId: string;
  /** Hex SHA-256 of the secret part. */
  readonly secretHash: string;
  readonly owner: ApiKeyOwner;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_ID_LENGTH = 16;
const SECRET_LENGTH = 40;
const KEY_PATTERN = new RegExp(`^cpk_([0-9A-Za-z]{${KEY_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})$`);

function randomBase62(length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += BASE62[randomInt(BASE62.length)];
  return text;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface IssuedApiKey {
  /** The full key, to show once to its owner. */
  readonly apiKey: string;
  /** What to store. */
  readonly record: ApiKeyRecord;
}

export function issueApiKey(owner: ApiKeyOwner, createdAt: string): IssuedApiKey {
  const keyId = randomBase62(KEY_ID_LENGTH);
  const secret = randomBase62(SECRET_LENGTH);
  return {
    apiKey: `cpk_${keyId}_${secret}`,
    record: { keyId, secretHash: hashSecret(secret), owner, createdAt, revokedAt: null, lastUsedAt: null },
  };
}

/** Splits a presented key into its id and secret; null when it is not of our format. */
export function parseApiKey(apiKey: string): { keyId: string; secret: string } | null {
  const match = KEY_PATTERN.exec(apiKey);
  if (!match?.[1] || !match[2]) return null;
  return { keyId: match[1], secret: match[2] };
}

/** Whether `text` has the form of a key id (what `cpk_<keyId>_` holds), not whether one exists. */
export function isApiKeyId(text: string): boolean {
  return text.length === KEY_ID_LENGTH && /^[0-9A-Za-z]+$/.test(text);
}

/** Whether `secret` is the one stored as `secretHash`, compared in constant time. */
export function secretMatches(secret: string, secretHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(secretHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/**
 * The usage identifier of an API key: what the authorizer returns as `usageIdentifierKey`, and
 * the value of the API key API Gateway keeps for it in the tenants' usage plan, so each of our
 * keys has its own throttle bucket (docs/deploy.md). It is no credential: with the API's key
 * source set to AUTHORIZER, API Gateway never takes it from a request.
 */
export function usageIdentifierOfKey(keyId: string): string {
  return `cpk-usage-${keyId}`;
}

/**
 * The usage identifier of a client's own API Gateway key, as earlier versions of the service gave
 * each OAuth client one; kept so that revoking a client removes a key left from then
 * (UsagePlanKeys.removeOAuthClient). No request carries it any more.
 */
export function usageIdentifierOfOAuthClient(clientId: string): string {
  return `cpo-usage-${clientId}`;
}

/**
 * The one usage identifier of every Bearer request, whatever its OAuth client: the value of the
 * API Gateway key the API stack creates in the OAuth clients' usage plan (lib/constructs/rest-api.ts).
 * One key however many clients register (an account's API key quota is shared with the partners'
 * keys); the service throttles Bearer requests per client and org itself (docs/http.md,
 * "Throttling"). No credential: with the key source AUTHORIZER, API Gateway never takes it from a
 * request.
 */
export const oauthClientsUsageIdentifier = 'cpo-usage-oauth-clients';
