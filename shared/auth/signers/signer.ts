/**
 * The Signer port (docs/oauth.md): signs access tokens with an ES256 key the service never exports.
 * Adapters: KMS (an asymmetric ECC_NIST_P256 key; on AWS) and local (a P-256 key pair generated
 * once under `.local/`). Verifiers never call a signer: they read the public keys (the JWKS).
 */

/** The key that signs now: its id and its signing operation. */
export interface SigningKey {
  /** RFC 7638 JWK thumbprint of the public key: the JWT header's `kid` and the JWKS entry's. */
  readonly kid: string;
  /** The ES256 signature of `signingInput` as JWS wants it: the 64 bytes `r || s`. */
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
}

export interface Signer {
  /** The current signing key (after a rotation, the new one). */
  signingKey(): Promise<SigningKey>;
  /** The public keys tokens may be verified with: the current one and, during a rotation, the previous one. */
  publicKeys(): Promise<readonly PublicJwk[]>;
}

/** An EC P-256 public key as the JWKS publishes it: never a private member. */
export interface PublicJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
  readonly kid: string;
  readonly alg: 'ES256';
  readonly use: 'sig';
}
