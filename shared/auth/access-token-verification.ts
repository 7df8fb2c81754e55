import { createLocalJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { AccessTokenClaims } from './access-tokens';
import type { PublicJwk } from './signers/signer';

/** Where a verifier reads the public keys from: a Signer is one; verifiers never sign. */
export interface PublicKeySource {
  publicKeys(): Promise<readonly PublicJwk[]>;
}

/** Why a token was refused: for logs and tests only; every refusal is the same 401 to the caller. */
export type AccessTokenRefusal =
  /** Not a compact JWS of ours: malformed, another `typ`, another algorithm (`none` included). */
  | 'malformed'
  /** No published key has the token's `kid`. */
  | 'unknown_key'
  /** The signature does not verify (tampered, or signed by another key under our kid). */
  | 'bad_signature'
  | 'expired'
  /** Another issuer or audience, a claim missing or of the wrong type, issued in the future. */
  | 'invalid_claims';

export class AccessTokenRefusedError extends Error {
  constructor(
    readonly reason: AccessTokenRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'AccessTokenRefusedError';
  }
}

export interface AccessTokenVerifier {
  /** The token's claims when it verifies; an AccessTokenRefusedError otherwise. */
  verify(token: string): Promise<AccessTokenClaims>;
}

export interface AccessTokenVerifierOptions {
  readonly keys: PublicKeySource;
  /** The `iss` every token must carry: the API's base URL. */
  readonly issuer: string;
  /** The `aud` every token must carry: the API as a resource (its base URL). */
  readonly audience: string;
  /** How long the public keys are reused before they are read again. @default 300 000 (the JWKS max-age) */
  readonly keysCacheMs?: number;
  /**
   * How soon a token with an unknown `kid` may make the keys be read again (a rotation the cache
   * has not seen yet); tokens with made-up kids cannot make the verifier read keys more often.
   * @default 30 000
   */
  readonly unknownKeyCooldownMs?: number;
  readonly nowMs?: () => number;
}

/**
 * The claims of our access tokens, checked after jose has checked the registered ones. Plain
 * checks, not a schema: the authorizer bundles no zod (docs/architecture.md, Bundles).
 */
function accessTokenClaimsOf(payload: Readonly<Record<string, unknown>>): AccessTokenClaims | null {
  const { iss, sub, aud, org_id, scope, client_id, jti, fam, iat, exp } = payload;
  const filled = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
  if (typeof iss !== 'string' || typeof aud !== 'string' || typeof scope !== 'string') return null;
  if (!filled(sub) || !filled(org_id) || !filled(client_id) || !filled(jti) || !filled(fam)) return null;
  if (typeof iat !== 'number' || typeof exp !== 'number') return null;
  return { iss, sub, aud, org_id, scope, client_id, jti, fam, iat, exp };
}

/** Tolerated clock difference between the token's issuer and the verifier. */
const clockToleranceSeconds = 5;

/**
 * Verifies access tokens (RFC 9068 profile, docs/oauth.md) with the published public keys, kept in
 * memory: ES256 only (so `alg: none` and HMAC confusion are refused before any key is looked
 * at), `typ` `at+jwt`, `iss` and `aud` the API's base URL, `exp` in the future, and the claims
 * of our tokens present. The keys are read again after `keysCacheMs`, or sooner when a token
 * names a kid they lack (a rotation), at most once per `unknownKeyCooldownMs`.
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const { keys, issuer, audience } = options;
  const keysCacheMs = options.keysCacheMs ?? 300_000;
  const cooldownMs = options.unknownKeyCooldownMs ?? 30_000;
  const nowMs = options.nowMs ?? Date.now;
  let cached: { readonly jwks: Promise<JWTVerifyGetKey>; readonly atMs: number } | undefined;

  const load = (): Promise<JWTVerifyGetKey> => {
    const jwks = keys.publicKeys().then((published) => createLocalJWKSet({ keys: [...published] }));
    const entry = { jwks, atMs: nowMs() };
    cached = entry;
    jwks.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return jwks;
  };
  const jwksOf = (): Promise<JWTVerifyGetKey> =>
    cached && nowMs() - cached.atMs < keysCacheMs ? cached.jwks : load();

  const verifyWith = async (token: string, jwks: JWTVerifyGetKey) => {
    const { payload } = await jwtVerify(token, jwks, {
      algorithms: ['ES256'],
      typ: 'at+jwt',
      issuer,
      audience,
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      clockTolerance: clockToleranceSeconds,
      currentDate: new Date(nowMs()),
    });
    return payload;
  };

  return {
    async verify(token) {
      let payload: Readonly<Record<string, unknown>>;
      try {
        try {
          payload = await verifyWith(token, await jwksOf());
        } catch (error) {
          const stale = cached === undefined || nowMs() - cached.atMs >= cooldownMs;
          if (!(error instanceof errors.JWKSNoMatchingKey) || !stale) throw error;
          payload = await verifyWith(token, await load());
        }
      } catch (error) {
        throw refusalOf(error);
      }
      const claims = accessTokenClaimsOf(payload);
      if (!claims) {
        throw new AccessTokenRefusedError('invalid_claims', 'The token lacks a claim of our access tokens');
      }
      return claims;
    },
  };
}

function refusalOf(error: unknown): Error {
  if (error instanceof errors.JWTExpired) return new AccessTokenRefusedError('expired', error.message);
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new AccessTokenRefusedError('invalid_claims', error.message);
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return new AccessTokenRefusedError('unknown_key', error.message);
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new AccessTokenRefusedError('bad_signature', error.message);
  }
  if (error instanceof errors.JOSEError) return new AccessTokenRefusedError('malformed', error.message);
  // Not the token's fault (the keys could not be read): a failure, not a refusal.
  return error instanceof Error ? error : new Error(String(error));
}
