import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../../../shared/auth/access-tokens';
import { createLocalSigner, localSigningKeyFile } from '../../../../shared/auth/signers/local-signer';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-signer-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const issuer = 'http://127.0.0.1:3000';
const claims = {
  iss: issuer,
  sub: 'ada@example.com',
  aud: issuer,
  org_id: 'org-1',
  scope: 'plans:read',
  client_id: 'client-1',
  jti: 'jti-1',
  fam: 'family-1',
  iat: Math.floor(Date.now() / 1000),
  exp: Math.floor(Date.now() / 1000) + 900,
};

describe('the local signer', () => {
  it('creates its key once, readable by its owner only (mode 0600)', async () => {
    // Prepare
    const signer = createLocalSigner(join(dir, 'nested'));

    // Act
    await signer.signingKey();
    const file = await stat(join(dir, 'nested', localSigningKeyFile));

    // Assess
    expect(file.mode & 0o777).toBe(0o600);
  });

  it('reuses the stored key after a restart: tokens signed before still verify', async () => {
    // Prepare
    const token = await issueAccessToken(createLocalSigner(dir), claims);

    // Act
    const reopened = createLocalSigner(dir);
    const keys = await reopened.publicKeys();
    const result = await jwtVerify(token, createLocalJWKSet({ keys: [...keys] }), {
      algorithms: ['ES256'],
      issuer,
      audience: issuer,
    });

    // Assess
    expect(result.payload.jti).toBe('jti-1');
    expect(keys).toHaveLength(1);
    expect((await reopened.signingKey()).kid).toBe(keys[0]?.kid);
    expect(keys[0]).not.toHaveProperty('d');
  });
});
