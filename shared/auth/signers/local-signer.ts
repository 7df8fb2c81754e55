import { createPrivateKey, generateKeyPairSync, type JsonWebKey, type KeyObject, sign } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publicJwkOf } from './public-jwk';
import type { PublicJwk, Signer } from './signer';

/** The file under the local directory holding the local signing key (a private JWK). */
export const localSigningKeyFile = 'signing-key.json';

/**
 * The Signer of the local runtime: an ES256 (P-256) key pair generated on first use and kept in
 * `<dir>/signing-key.json`, readable by its owner only (mode 0600), so tokens issued before a
 * restart still verify after it. Node signs straight into JOSE's `r || s` (ieee-p1363).
 */
export function createLocalSigner(dir: string): Signer {
  let loading: Promise<{ readonly privateKey: KeyObject; readonly jwk: PublicJwk }> | undefined;
  const key = () => {
    loading ??= loadOrCreateKey(dir).then(async (privateKey) => ({
      privateKey,
      jwk: await publicJwkOf(privateKey),
    }));
    return loading;
  };
  return {
    async signingKey() {
      const { privateKey, jwk } = await key();
      return {
        kid: jwk.kid,
        sign: async (signingInput) =>
          new Uint8Array(sign('sha256', signingInput, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
      };
    },
    async publicKeys() {
      return [(await key()).jwk];
    },
  };
}

async function loadOrCreateKey(dir: string): Promise<KeyObject> {
  const path = join(dir, localSigningKeyFile);
  await mkdir(dir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  try {
    // `wx`: two processes starting on one directory at once keep the first key written.
    await writeFile(path, JSON.stringify(privateKey.export({ format: 'jwk' })), {
      mode: 0o600,
      flag: 'wx',
    });
    return privateKey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stored: unknown = JSON.parse(await readFile(path, 'utf8'));
  return createPrivateKey({ key: stored as JsonWebKey, format: 'jwk' });
}
