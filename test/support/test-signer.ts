import { generateKeyPairSync, sign } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import type { PublicJwk, Signer } from '../../shared/auth/signers/signer';

/**
 * A Signer on a P-256 key generated in the test process: the real adapters (KMS, and the local
 * key under `.local/`) live in shared/auth/signers; tests of the flows need only some ES256 key.
 */
export async function createTestSigner(): Promise<Signer & { readonly jwk: PublicJwk }> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const exported = publicKey.export({ format: 'jwk' });
  const kid = await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: exported.x, y: exported.y });
  const jwk: PublicJwk = {
    kty: 'EC',
    crv: 'P-256',
    x: exported.x as string,
    y: exported.y as string,
    kid,
    alg: 'ES256',
    use: 'sig',
  };
  return {
    jwk,
    signingKey: async () => ({
      kid,
      sign: async (input) =>
        new Uint8Array(sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
    }),
    publicKeys: async () => [jwk],
  };
}
