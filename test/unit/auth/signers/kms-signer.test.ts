import { createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import {
  GetPublicKeyCommand,
  KMSClient,
  NotFoundException,
  SignCommand,
  type SignCommandInput,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { calculateJwkThumbprint, createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { type AccessTokenClaims, issueAccessToken } from '../../../../shared/auth/access-tokens';
import { createKmsSigner } from '../../../../shared/auth/signers/kms-signer';

const currentAlias = 'alias/test/oauth-signing';
const previousAlias = 'alias/test/oauth-signing-previous';

/**
 * A small KMS: real P-256 keys by ARN, aliases naming them. Sign signs the raw message with
 * ECDSA SHA-256 and answers DER, as KMS does; GetPublicKey answers the DER SPKI. It records the
 * DER lengths it produced.
 */
function fakeKms() {
  const keys = new Map<string, KeyObject>();
  const aliases = new Map<string, string>();
  const derLengths = new Map<number, number>();
  const client = new KMSClient({ region: 'eu-west-1' });
  const mock = mockClient(client);
  const keyOf = (keyId: string | undefined) => {
    const arn = keyId && (aliases.get(keyId) ?? keyId);
    const key = arn ? keys.get(arn) : undefined;
    if (!arn || !key) throw new NotFoundException({ message: `no key ${keyId}`, $metadata: {} });
    return { arn, key };
  };
  mock.on(GetPublicKeyCommand).callsFake(({ KeyId }) => {
    const { arn, key } = keyOf(KeyId);
    return {
      KeyId: arn,
      KeySpec: 'ECC_NIST_P256',
      KeyUsage: 'SIGN_VERIFY',
      SigningAlgorithms: ['ECDSA_SHA_256'],
      PublicKey: new Uint8Array(createPublicKey(key).export({ format: 'der', type: 'spki' })),
    };
  });
  mock.on(SignCommand).callsFake(({ KeyId, Message, MessageType, SigningAlgorithm }: SignCommandInput) => {
    const { arn, key } = keyOf(KeyId);
    if (MessageType !== 'RAW' || SigningAlgorithm !== 'ECDSA_SHA_256' || !Message) {
      throw new Error('unexpected Sign request');
    }
    const der = sign('sha256', Message, { key, dsaEncoding: 'der' });
    derLengths.set(der.length, (derLengths.get(der.length) ?? 0) + 1);
    return { KeyId: arn, Signature: new Uint8Array(der), SigningAlgorithm };
  });
  let next = 1;
  return {
    client,
    mock,
    derLengths,
    /** Creates a key and points `alias` at it; answers its ARN. */
    createKey(alias: string): string {
      const arn = `arn:aws:kms:eu-west-1:123456789012:key/key-${next++}`;
      keys.set(arn, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
      aliases.set(alias, arn);
      return arn;
    },
    pointAlias(alias: string, arn: string) {
      aliases.set(alias, arn);
    },
  };
}

const issuer = 'https://api.example.com';

function claims(jti: string): AccessTokenClaims {
  const iat = Math.floor(Date.now() / 1000);
  return {
    iss: issuer,
    sub: 'ada@example.com',
    aud: issuer,
    org_id: '7f1c2a52-7c1e-4b8e-9a51-2f3f6a1d9c10',
    scope: 'plans:read',
    client_id: 'client-1',
    jti,
    fam: 'family-1',
    iat,
    exp: iat + 900,
  };
}

describe('the KMS signer', () => {
  it('signs tokens that jose verifies with the published keys, whatever the DER length of the signature', async () => {
    // Prepare
    const kms = fakeKms();
    kms.createKey(currentAlias);
    const signer = createKmsSigner({ client: kms.client, currentAlias, previousAlias });
    const jwks = createLocalJWKSet({ keys: [...(await signer.publicKeys())] });

    // Act
    const verified = [];
    for (let i = 0; i < 2000; i += 1) {
      const token = await issueAccessToken(signer, claims(`token-${i}`));
      verified.push(await jwtVerify(token, jwks, { algorithms: ['ES256'], issuer, audience: issuer }));
    }

    // Assess
    expect(verified.map((result) => result.payload.jti)).toEqual(
      Array.from({ length: 2000 }, (_, i) => `token-${i}`),
    );
    expect(verified.every((result) => result.protectedHeader.typ === 'at+jwt')).toBe(true);
    // r and s are each 32 bytes, or 31 with a leading zero byte, or 33 with a sign byte.
    expect([...kms.derLengths.keys()].sort()).toEqual(expect.arrayContaining([70, 71, 72]));
  });

  it('publishes the current and the previous key as public JWKs whose kid is the RFC 7638 thumbprint', async () => {
    // Prepare
    const kms = fakeKms();
    kms.createKey(previousAlias);
    kms.createKey(currentAlias);
    const signer = createKmsSigner({ client: kms.client, currentAlias, previousAlias });

    // Act
    const keys = await signer.publicKeys();
    const signingKey = await signer.signingKey();

    // Assess
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).toEqual({
        kty: 'EC',
        crv: 'P-256',
        x: expect.any(String),
        y: expect.any(String),
        kid: await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: key.x, y: key.y }),
        alg: 'ES256',
        use: 'sig',
      });
      expect(key).not.toHaveProperty('d');
    }
    expect(keys[0]?.kid).toBe(signingKey.kid);
  });

  it('publishes the current key alone when the previous alias names no key or the same key', async () => {
    // Prepare
    const kms = fakeKms();
    const arn = kms.createKey(currentAlias);
    const withoutPrevious = createKmsSigner({ client: kms.client, currentAlias, previousAlias });
    const beforeRotation = fakeKms();
    beforeRotation.pointAlias(previousAlias, beforeRotation.createKey(currentAlias));

    // Act
    const alone = await withoutPrevious.publicKeys();
    const same = await createKmsSigner({
      client: beforeRotation.client,
      currentAlias,
      previousAlias,
    }).publicKeys();

    // Assess
    expect(arn).toContain('key-1');
    expect(alone).toHaveLength(1);
    expect(same).toHaveLength(1);
  });

  it('signs with the key its alias resolved to, so the kid matches the signature even while the alias swaps', async () => {
    // Prepare
    let nowMs = 0;
    const kms = fakeKms();
    const first = kms.createKey(currentAlias);
    const signer = createKmsSigner({
      client: kms.client,
      currentAlias,
      previousAlias,
      aliasCacheMs: 60_000,
      nowMs: () => nowMs,
    });
    const before = await signer.signingKey();
    kms.pointAlias(previousAlias, first);
    kms.createKey(currentAlias);

    // Act
    const stillCached = await signer.signingKey();
    await stillCached.sign(new TextEncoder().encode('a.b'));
    nowMs = 60_000;
    const after = await signer.signingKey();
    const published = await signer.publicKeys();

    // Assess
    expect(stillCached.kid).toBe(before.kid);
    expect(kms.mock.commandCalls(SignCommand)[0]?.args[0].input.KeyId).toBe(first);
    expect(after.kid).not.toBe(before.kid);
    expect(published.map((key) => key.kid)).toEqual([after.kid, before.kid]);
  });

  it('asks KMS for a public key once per alias while it is cached, however many tokens it signs', async () => {
    // Prepare
    const kms = fakeKms();
    kms.createKey(currentAlias);
    const signer = createKmsSigner({ client: kms.client, currentAlias });

    // Act
    await Promise.all(Array.from({ length: 50 }, (_, i) => issueAccessToken(signer, claims(`t-${i}`))));
    await signer.publicKeys();

    // Assess
    expect(kms.mock.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
    expect(kms.mock.commandCalls(SignCommand)).toHaveLength(50);
  });

  it('refuses a KMS key that is not an ECC_NIST_P256 signing key', async () => {
    // Prepare
    const client = new KMSClient({ region: 'eu-west-1' });
    mockClient(client)
      .on(GetPublicKeyCommand)
      .resolves({ KeyId: 'arn:aws:kms:eu-west-1:1:key/rsa', KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' });

    // Act
    const refusal = createKmsSigner({ client, currentAlias }).signingKey();

    // Assess
    await expect(refusal).rejects.toThrow(/not an ECC_NIST_P256/);
  });
});
