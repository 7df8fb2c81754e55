import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AccessTokenRefusal,
  AccessTokenRefusedError,
  createAccessTokenVerifier,
  type PublicKeySource,
} from '../../../shared/auth/access-token-verification';
import { type AccessTokenClaims, issueAccessToken } from '../../../shared/auth/access-tokens';
import { publicJwkOf } from '../../../shared/auth/signers/public-jwk';
import type { Signer } from '../../../shared/auth/signers/signer';

const base = 'https://api.example.com';
const nowSeconds = 1_800_000_000;
const nowMs = () => nowSeconds * 1000;

/** A signer on a fresh P-256 key, in memory. */
function memorySigner(): Signer {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicJwkOf(privateKey);
  return {
    signingKey: async () => ({
      kid: (await jwk).kid,
      sign: async (input) =>
        new Uint8Array(sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
    }),
    publicKeys: async () => [await jwk],
  };
}

function claims(overrides: Partial<AccessTokenClaims> = {}): AccessTokenClaims {
  return {
    iss: base,
    sub: 'ada@example.com',
    aud: base,
    org_id: 'org-1',
    scope: 'plans:read plans:apply',
    client_id: 'client-1',
    jti: 'jti-1',
    fam: 'family-1',
    iat: nowSeconds - 60,
    exp: nowSeconds + 840,
    ...overrides,
  };
}

/** Counts how often the verifier reads the keys. */
function countingKeys(source: PublicKeySource) {
  let reads = 0;
  return {
    source: {
      publicKeys: () => {
        reads += 1;
        return source.publicKeys();
      },
    } satisfies PublicKeySource,
    reads: () => reads,
  };
}

function verifierOf(keys: PublicKeySource, options: { now?: () => number } = {}) {
  return createAccessTokenVerifier({ keys, issuer: base, audience: base, nowMs: options.now ?? nowMs });
}

async function refusalOf(promise: Promise<unknown>): Promise<AccessTokenRefusal | 'accepted'> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (error instanceof AccessTokenRefusedError) return error.reason;
    throw error;
  }
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('access token verification', () => {
  it("answers the claims of a token the signer's key signed", async () => {
    // Prepare
    const signer = memorySigner();
    const token = await issueAccessToken(signer, claims());

    // Act
    const verified = await verifierOf(signer).verify(token);

    // Assess
    expect(verified).toEqual(claims());
  });

  it('refuses an unsigned (alg none), a tampered and a foreign-key token', async () => {
    // Prepare
    const signer = memorySigner();
    const foreign = memorySigner();
    const kid = (await signer.signingKey()).kid;
    const genuine = await issueAccessToken(signer, claims());
    const [header, , signature] = genuine.split('.');
    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt', kid })}.${b64(claims())}.`;
    const tampered = `${header}.${b64(claims({ org_id: 'org-2' }))}.${signature}`;
    const foreignToken = await issueAccessToken(foreign, claims());
    // The foreign key claims our kid: its signature still does not verify with our key.
    const [, foreignPayload] = foreignToken.split('.');
    const foreignSigningInput = `${header}.${foreignPayload}`;
    const foreignSignature = await (await foreign.signingKey()).sign(
      new TextEncoder().encode(foreignSigningInput),
    );
    const impersonating = `${foreignSigningInput}.${Buffer.from(foreignSignature).toString('base64url')}`;

    // Act
    const verifier = verifierOf(signer);
    const outcomes = await Promise.all(
      [unsigned, tampered, foreignToken, impersonating, 'not-a-jwt'].map((token) =>
        refusalOf(verifier.verify(token)),
      ),
    );

    // Assess
    expect(outcomes).toEqual(['malformed', 'bad_signature', 'unknown_key', 'bad_signature', 'malformed']);
  });

  it('refuses a token that is expired, of another issuer or audience, not typed at+jwt, or lacks our claims', async () => {
    // Prepare
    const signer = memorySigner();
    const key = await signer.signingKey();
    const untyped = async () => {
      const input = `${b64({ alg: 'ES256', kid: key.kid })}.${b64(claims())}`;
      const signature = await key.sign(new TextEncoder().encode(input));
      return `${input}.${Buffer.from(signature).toString('base64url')}`;
    };
    const { fam: _fam, ...withoutFamily } = claims();
    const tokens = await Promise.all([
      issueAccessToken(signer, claims({ exp: nowSeconds - 10 })),
      issueAccessToken(signer, claims({ iss: 'https://evil.example.com' })),
      issueAccessToken(signer, claims({ aud: 'https://other-api.example.com' })),
      untyped(),
      issueAccessToken(signer, withoutFamily as AccessTokenClaims),
    ]);

    // Act
    const verifier = verifierOf(signer);
    const outcomes = await Promise.all(tokens.map((token) => refusalOf(verifier.verify(token))));

    // Assess
    expect(outcomes).toEqual([
      'expired',
      'invalid_claims',
      'invalid_claims',
      'invalid_claims',
      'invalid_claims',
    ]);
  });

  it('reads the keys once for many tokens, and again only after the cache time', async () => {
    // Prepare
    let now = nowMs();
    const signer = memorySigner();
    const keys = countingKeys(signer);
    const verifier = verifierOf(keys.source, { now: () => now });
    const token = await issueAccessToken(signer, claims());

    // Act
    for (let i = 0; i < 100; i += 1) await verifier.verify(token);
    const readsWithinCache = keys.reads();
    now += 300_000;
    await verifier.verify(token);

    // Assess
    expect(readsWithinCache).toBe(1);
    expect(keys.reads()).toBe(2);
  });

  it('learns a rotated key from a token naming it, but unknown kids cannot make it read keys more than once per cooldown', async () => {
    // Prepare
    let now = nowMs();
    const before = memorySigner();
    const after = memorySigner();
    let rotated = false;
    const keys = countingKeys({
      publicKeys: async () =>
        rotated ? [...(await after.publicKeys()), ...(await before.publicKeys())] : before.publicKeys(),
    });
    const verifier = verifierOf(keys.source, { now: () => now });
    await verifier.verify(await issueAccessToken(before, claims()));
    rotated = true;
    now += 31_000;
    const afterRotation = await issueAccessToken(after, claims());
    const stranger = await issueAccessToken(memorySigner(), claims());

    // Act
    const first = await refusalOf(verifier.verify(afterRotation));
    const strangers = await Promise.all(
      Array.from({ length: 20 }, () => refusalOf(verifier.verify(stranger))),
    );

    // Assess
    expect(first).toBe('accepted');
    expect(keys.reads()).toBe(2);
    expect(new Set(strangers)).toEqual(new Set(['unknown_key']));
  });
});
