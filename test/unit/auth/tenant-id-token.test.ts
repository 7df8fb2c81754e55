import type { webcrypto } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

type CryptoKey = webcrypto.CryptoKey;

import { beforeAll, describe, expect, it } from 'vitest';
import { type ExpectedIdToken, verifyTenantIdToken } from '../../../shared/auth/tenant-id-token';
import { tenantConsentRoles } from '../../../shared/domain/onboarding/tenant-admin-roles';
import { TenantSignInError } from '../../../shared/domain/onboarding/tenant-sign-in-error';

/**
 * The ID token that proves an Azure admin consent, checked against tokens signed with a real RSA
 * key, as the identity platform signs them: each refusal has its own code.
 */

const tenantId = '3f2a9c1e-7b6d-4e5f-8a9b-0c1d2e3f4a5b';
const otherTenant = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const issuer = `https://login.microsoftonline.com/${tenantId}/v2.0`;
const audience = '00000000-0000-4000-8000-00000000c0de';
const nonce = 'n-0S6_WzA2Mj';
const now = new Date('2026-11-28T12:00:00.000Z');
const nowSeconds = Math.floor(now.getTime() / 1000);
const globalAdministrator = tenantConsentRoles[0].id;
const expected: ExpectedIdToken = { issuer, tenantId, audience, nonce };

let platformKey: CryptoKey;
let strangerKey: CryptoKey;
let keys: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  const platform = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256');
  platformKey = platform.privateKey;
  strangerKey = stranger.privateKey;
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(platform.publicKey)), kid: 'k1', alg: 'RS256' }] });
});

function idToken(claims: JWTPayload = {}, key: CryptoKey = platformKey): Promise<string> {
  return new SignJWT({
    iss: issuer,
    aud: audience,
    tid: tenantId,
    oid: '6f0b2a1c-9e8d-4c7b-a6f5-e4d3c2b1a090',
    nonce,
    uti: `uti-${Math.random()}`,
    wids: [globalAdministrator],
    iat: nowSeconds - 60,
    exp: nowSeconds + 3600,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .sign(key);
}

function verify(token: string, used = new Set<string>()) {
  return verifyTenantIdToken(token, expected, keys, {
    now,
    firstUse: async (tokenId) => {
      if (used.has(tokenId)) return false;
      used.add(tokenId);
      return true;
    },
  });
}

async function refusal(token: Promise<string>): Promise<string> {
  const error = await verify(await token).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TenantSignInError);
  return (error as TenantSignInError).code;
}

describe("the ID token of a tenant's administrator", () => {
  it('proves the administrator: tenant, object id, the role that allows the consent and the token id', async () => {
    // Act
    const admin = await verify(
      await idToken({ uti: 'AbC-123', wids: ['b79fbf4d-3ef9-4689-8143-76b194e85509', globalAdministrator] }),
    );

    // Assess
    expect(admin).toEqual({
      tenantId,
      objectId: '6f0b2a1c-9e8d-4c7b-a6f5-e4d3c2b1a090',
      role: { id: globalAdministrator, name: 'Global Administrator' },
      tokenId: 'AbC-123',
      expiresAt: new Date((nowSeconds + 3600) * 1000).toISOString(),
    });
  });

  it.each(tenantConsentRoles.map((role) => [role.name, role.id]))('accepts a %s', async (_name, id) => {
    expect((await verify(await idToken({ wids: [id] }))).role.id).toBe(id);
  });

  it.each([
    ['another tenant (tid)', { tid: otherTenant }, 'id_token_tenant'],
    [
      "another tenant's issuer",
      { iss: `https://login.microsoftonline.com/${otherTenant}/v2.0` },
      'id_token_issuer',
    ],
    [
      "the multi-tenant endpoint's issuer template",
      { iss: 'https://login.microsoftonline.com/{tenantid}/v2.0' },
      'id_token_issuer',
    ],
    ['another application (aud)', { aud: 'another-app' }, 'id_token_audience'],
    ['two audiences', { aud: [audience, 'another-app'] }, 'id_token_audience'],
    ['another sign-in (nonce)', { nonce: 'another' }, 'id_token_nonce'],
    ['no role', { wids: undefined }, 'not_tenant_admin'],
    [
      'a role that may not consent (User Administrator)',
      { wids: ['fe930be7-5e62-47db-91af-98c3a49a38b1'] },
      'not_tenant_admin',
    ],
    ['an expired token', { iat: nowSeconds - 7200, exp: nowSeconds - 120 }, 'id_token_expired'],
    ['no object id', { oid: undefined }, 'id_token_malformed'],
    ['no token id', { uti: undefined }, 'id_token_malformed'],
  ] as const)('refuses %s', async (_case, claims, code) => {
    expect(await refusal(idToken(claims as JWTPayload))).toBe(code);
  });

  it('refuses a signature by a key the issuer does not publish, and an unsigned token', async () => {
    // Prepare
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ iss: issuer, aud: audience, tid: tenantId, nonce }),
    ).toString('base64url')}.`;

    // Act
    const stranger = await refusal(idToken({}, strangerKey));
    const none = await refusal(Promise.resolve(unsigned));

    // Assess
    expect(stranger).toBe('id_token_signature');
    expect(none).toBe('id_token_malformed');
  });

  it('accepts a token once: its replay is refused', async () => {
    // Prepare
    const used = new Set<string>();
    const token = await idToken();

    // Act
    const first = await verify(token, used);
    const again = await verify(token, used).catch((error: TenantSignInError) => error.code);

    // Assess
    expect(first.tenantId).toBe(tenantId);
    expect(again).toBe('id_token_replayed');
  });

  it('allows a minute of clock skew on the expiry, not more', async () => {
    expect((await verify(await idToken({ exp: nowSeconds - 30 }))).tenantId).toBe(tenantId);
    expect(await refusal(idToken({ exp: nowSeconds - 61 }))).toBe('id_token_expired');
  });
});
