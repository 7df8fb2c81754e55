import type {
  AuthorizationCode,
  AuthorizationRequest,
  ClientAuthMethod,
  OAuthClient,
  RefreshToken,
  SignInCode,
  SignInSession,
  TokenFamily,
} from '../../domain/oauth/records';
import type { OAuthScope } from '../../domain/oauth/scopes';
import { normalizeEmail } from '../../domain/orgs';
import { epochSeconds, isoTime } from '../rate-counters';
import type { StoredItem } from '../table-client';

/**
 * The OAuth items (docs/data-model.md, OAuth) as the three OAuth repositories write and read them:
 * each kind is the list of its record's fields with how each one is stored, and one writer and
 * one reader serve them all. Every item carries its `type` and `version: 1`; a field named by the
 * item's key (a code's hash, a token's hash) is not stored again and comes back from the key.
 */

/** How one field of a record is stored; a field without `write` is set by an update (a spend), never by a put. */
interface Field<V> {
  readonly write?: (value: V) => unknown;
  readonly read: (stored: unknown) => V;
}

const text: Field<string> = { write: (value) => value, read: (stored) => stored as string };
/** An attribute left out when null (DynamoDB drops undefined), read back as null. */
const optionalText: Field<string | null> = {
  write: (value) => value ?? undefined,
  read: (stored) => (stored as string | undefined) ?? null,
};
/** An e-mail address, stored normalized (docs/data-model.md: one user per address). */
const emailAddress: Field<string> = { write: normalizeEmail, read: (stored) => stored as string };
/** The TTL attribute: epoch seconds in the item, an ISO time in the record. */
const expiry: Field<string> = { write: epochSeconds, read: isoTime };
/** The time a single-use item was spent, set by the spending update only. */
const spentAt: Field<string | null> = { read: optionalText.read };
const flag: Field<boolean> = { write: (value) => value, read: (stored) => stored === true };
const count: Field<number> = { write: (value) => value, read: Number };
function list<T>(): Field<readonly T[]> {
  return { write: (values) => [...values], read: (stored) => stored as T[] };
}
function oneOf<T extends string>(): Field<T> {
  return { write: (value) => value, read: (stored) => stored as T };
}

/** The record's fields read with the key's part of the record, when the key holds one. */
type KeyedRead<R, K extends keyof R> = [K] extends [never] ? [] : [keyed: Pick<R, K>];

export interface RecordItems<R, K extends keyof R = never> {
  write(record: R): StoredItem;
  read(item: StoredItem, ...keyed: KeyedRead<R, K>): R;
}

function recordItems<R, K extends keyof R = never>(
  type: string,
  fields: { readonly [F in Exclude<keyof R, K>]-?: Field<R[F]> },
): RecordItems<R, K> {
  const described = Object.entries(fields) as [string, Field<unknown>][];
  return {
    write(record) {
      const item: StoredItem = { type, version: 1 };
      for (const [name, field] of described) {
        if (field.write) item[name] = field.write((record as Record<string, unknown>)[name]);
      }
      return item;
    },
    read(item, ...keyed) {
      const record: Record<string, unknown> = { ...keyed[0] };
      for (const [name, field] of described) record[name] = field.read(item[name]);
      return record as R;
    },
  };
}

/** The authorization code the consent issues (sign-ins.ts) and the token endpoint spends (grants.ts). */
export const codeItems = recordItems<AuthorizationCode, 'codeHash'>('oauth_code', {
  clientId: text,
  redirectUri: text,
  codeChallenge: text,
  email: emailAddress,
  orgId: text,
  scopes: list<OAuthScope>(),
  resource: text,
  familyId: text,
  expiresAt: expiry,
  usedAt: spentAt,
});

/**
 * The family item. Its `type`, `familyId`, `revoked` (a boolean, always present) and `revokedAt`
 * are what the authorizer reads (docs/oauth.md): keep their names and types.
 */
export const familyItems = recordItems<TokenFamily>('oauth_family', {
  familyId: text,
  clientId: text,
  email: emailAddress,
  orgId: text,
  scopes: list<OAuthScope>(),
  resource: text,
  createdAt: text,
  expiresAt: expiry,
  revoked: flag,
  revokedAt: optionalText,
});

export const refreshTokenItems = recordItems<RefreshToken, 'tokenHash'>('oauth_refresh_token', {
  familyId: text,
  clientId: text,
  createdAt: text,
  expiresAt: expiry,
  rotatedAt: spentAt,
});

export const requestItems = recordItems<AuthorizationRequest>('oauth_request', {
  requestId: text,
  clientId: text,
  redirectUri: text,
  scopes: list<OAuthScope>(),
  state: optionalText,
  codeChallenge: text,
  resource: text,
  expiresAt: expiry,
});

export const sessionItems = recordItems<SignInSession, 'sessionHash'>('oauth_session', {
  csrfToken: text,
  email: optionalText,
  pendingEmail: optionalText,
  expiresAt: expiry,
});

export const signInCodeItems = recordItems<SignInCode, 'requestId'>('oauth_sign_in_code', {
  email: emailAddress,
  codeHash: text,
  attempts: count,
  expiresAt: expiry,
});

export const clientItems = recordItems<OAuthClient>('oauth_client', {
  clientId: text,
  name: text,
  redirectUris: list<string>(),
  authMethod: oneOf<ClientAuthMethod>(),
  secretHash: optionalText,
  registration: oneOf<OAuthClient['registration']>(),
  createdAt: text,
  revokedAt: optionalText,
});
