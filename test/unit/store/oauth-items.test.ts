import { describe, expect, it } from 'vitest';
import {
  clientItems,
  codeItems,
  familyItems,
  refreshTokenItems,
  requestItems,
  sessionItems,
  signInCodeItems,
} from '../../../shared/store/oauth/oauth-items';

/**
 * The OAuth items as they are stored (docs/data-model.md, OAuth), worked by hand: a deployed table
 * holds items of this shape, so any change to a name, a type or the TTL's unit is a migration.
 */
const expiresAt = '2026-11-29T10:00:00.000Z';
const expiresAtEpoch = 1_795_946_400;

const code = {
  codeHash: 'code-hash',
  clientId: 'client-1',
  redirectUri: 'http://127.0.0.1:8765/callback',
  codeChallenge: 'challenge',
  email: 'Ana@Example.COM',
  orgId: 'org-1',
  scopes: ['plans:read', 'plans:apply'],
  resource: 'https://api.example.com',
  familyId: 'family-1',
  expiresAt,
  usedAt: null,
} as const;

const family = {
  familyId: 'family-1',
  clientId: 'client-1',
  email: 'Ana@Example.COM',
  orgId: 'org-1',
  scopes: ['plans:read'],
  resource: 'https://api.example.com',
  createdAt: '2026-11-28T10:00:00.000Z',
  expiresAt,
  revoked: false,
  revokedAt: null,
} as const;

const refreshToken = {
  tokenHash: 'token-hash',
  familyId: 'family-1',
  clientId: 'client-1',
  createdAt: '2026-11-28T10:00:00.000Z',
  expiresAt,
  rotatedAt: null,
} as const;

const request = {
  requestId: 'request-1',
  clientId: 'client-1',
  redirectUri: 'http://127.0.0.1:8765/callback',
  scopes: ['plans:read'],
  state: null,
  codeChallenge: 'challenge',
  resource: 'https://api.example.com',
  expiresAt,
} as const;

const session = {
  sessionHash: 'session-hash',
  csrfToken: 'csrf',
  email: null,
  pendingEmail: 'ana@example.com',
  expiresAt,
} as const;

const signInCode = {
  requestId: 'request-1',
  email: 'Ana@Example.COM',
  codeHash: 'sign-in-code-hash',
  attempts: 2,
  expiresAt,
} as const;

const client = {
  clientId: 'client-1',
  name: 'Claude',
  redirectUris: ['http://127.0.0.1/callback'],
  authMethod: 'none',
  secretHash: null,
  registration: 'dynamic',
  createdAt: '2026-11-28T10:00:00.000Z',
  revokedAt: null,
} as const;

describe('the OAuth items as stored', () => {
  it.each([
    {
      kind: 'authorization code',
      item: codeItems.write(code),
      stored: {
        type: 'oauth_code',
        version: 1,
        clientId: 'client-1',
        redirectUri: 'http://127.0.0.1:8765/callback',
        codeChallenge: 'challenge',
        email: 'ana@example.com',
        orgId: 'org-1',
        scopes: ['plans:read', 'plans:apply'],
        resource: 'https://api.example.com',
        familyId: 'family-1',
        expiresAt: expiresAtEpoch,
      },
    },
    {
      kind: 'token family',
      item: familyItems.write({ ...family, revoked: true, revokedAt: '2026-11-28T11:00:00.000Z' }),
      stored: {
        type: 'oauth_family',
        version: 1,
        familyId: 'family-1',
        clientId: 'client-1',
        email: 'ana@example.com',
        orgId: 'org-1',
        scopes: ['plans:read'],
        resource: 'https://api.example.com',
        createdAt: '2026-11-28T10:00:00.000Z',
        expiresAt: expiresAtEpoch,
        revoked: true,
        revokedAt: '2026-11-28T11:00:00.000Z',
      },
    },
    {
      kind: 'refresh token',
      item: refreshTokenItems.write(refreshToken),
      stored: {
        type: 'oauth_refresh_token',
        version: 1,
        familyId: 'family-1',
        clientId: 'client-1',
        createdAt: '2026-11-28T10:00:00.000Z',
        expiresAt: expiresAtEpoch,
      },
    },
    {
      kind: 'authorization request',
      item: requestItems.write(request),
      stored: {
        type: 'oauth_request',
        version: 1,
        requestId: 'request-1',
        clientId: 'client-1',
        redirectUri: 'http://127.0.0.1:8765/callback',
        scopes: ['plans:read'],
        state: undefined,
        codeChallenge: 'challenge',
        resource: 'https://api.example.com',
        expiresAt: expiresAtEpoch,
      },
    },
    {
      kind: 'sign-in session',
      item: sessionItems.write(session),
      stored: {
        type: 'oauth_session',
        version: 1,
        csrfToken: 'csrf',
        email: undefined,
        pendingEmail: 'ana@example.com',
        expiresAt: expiresAtEpoch,
      },
    },
    {
      kind: 'sign-in code',
      item: signInCodeItems.write(signInCode),
      stored: {
        type: 'oauth_sign_in_code',
        version: 1,
        email: 'ana@example.com',
        codeHash: 'sign-in-code-hash',
        attempts: 2,
        expiresAt: expiresAtEpoch,
      },
    },
    {
      kind: 'client',
      item: clientItems.write(client),
      stored: {
        type: 'oauth_client',
        version: 1,
        clientId: 'client-1',
        name: 'Claude',
        redirectUris: ['http://127.0.0.1/callback'],
        authMethod: 'none',
        secretHash: undefined,
        registration: 'dynamic',
        createdAt: '2026-11-28T10:00:00.000Z',
        revokedAt: undefined,
      },
    },
  ])('writes the $kind item with its names, its types and the TTL in epoch seconds', ({ item, stored }) => {
    // Assess: the same attributes, none more, absent ones as undefined (removed when marshalled).
    expect(Object.keys(item).sort()).toEqual(Object.keys(stored).sort());
    expect(item).toStrictEqual(stored);
  });
});

describe('the OAuth items read back', () => {
  it.each([
    {
      kind: 'authorization code, spent',
      read: codeItems.read(
        { ...codeItems.write(code), usedAt: '2026-11-28T10:01:00.000Z' },
        { codeHash: 'code-hash' },
      ),
      record: { ...code, email: 'ana@example.com', usedAt: '2026-11-28T10:01:00.000Z' },
    },
    {
      kind: 'token family',
      read: familyItems.read(familyItems.write(family)),
      record: { ...family, email: 'ana@example.com' },
    },
    {
      kind: 'revoked-family marker, no revoked flag',
      read: familyItems.read({ ...familyItems.write(family), revoked: undefined }),
      record: { ...family, email: 'ana@example.com', revoked: false },
    },
    {
      kind: 'refresh token, rotated',
      read: refreshTokenItems.read(
        {
          ...refreshTokenItems.write(refreshToken),
          rotatedAt: '2026-11-28T10:02:00.000Z',
        },
        { tokenHash: 'token-hash' },
      ),
      record: { ...refreshToken, rotatedAt: '2026-11-28T10:02:00.000Z' },
    },
    { kind: 'authorization request', read: requestItems.read(requestItems.write(request)), record: request },
    {
      kind: 'sign-in session',
      read: sessionItems.read(sessionItems.write(session), { sessionHash: 'session-hash' }),
      record: session,
    },
    {
      kind: 'sign-in code, its attempts a number',
      read: signInCodeItems.read(
        { ...signInCodeItems.write(signInCode), attempts: '2' },
        { requestId: 'request-1' },
      ),
      record: { ...signInCode, email: 'ana@example.com' },
    },
    { kind: 'client', read: clientItems.read(clientItems.write(client)), record: client },
  ])('reads the $kind as it was written, absent attributes as null', ({ read, record }) => {
    // Assess
    expect(read).toStrictEqual(record);
  });
});
