import { createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import type { PublicJwk } from './signer';

/**
 * The JWKS entry of a P-256 public key: its coordinates only (never a private member, even when
 * given a private key), `kid` its RFC 7638 thumbprint, so every signer and verifier computes the
 * same id from the key alone.
 */
export async function publicJwkOf(key: KeyObject): Promise<PublicJwk> {
  const exported = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' });
  if (exported.kty !== 'EC' || exported.crv !== 'P-256' || !exported.x || !exported.y) {
    throw new Error(`A signing key must be an EC P-256 key, not ${exported.kty} ${exported.crv ?? ''}`);
  }
  const coordinates = { kty: 'EC', crv: 'P-256', x: exported.x, y: exported.y } as const;
  const kid = await calculateJwkThumbprint(coordinates, 'sha256');
  return { ...coordinates, kid, alg: 'ES256', use: 'sig' };
}

/** The JWKS entry of a public key given as DER SubjectPublicKeyInfo (what KMS GetPublicKey answers). */
export function publicJwkFromSpki(spki: Uint8Array): Promise<PublicJwk> {
  return publicJwkOf(createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }));
}
