import type { PublicKeySource } from './access-token-verification';
import type { PublicJwk } from './signers/signer';

export interface PublishedKeysOptions {
  /** The JWKS URL: the issuer's `jwks_uri` (#4). */
  readonly url: string;
  /** How long one read may take before it fails. @default 3 000 */
  readonly timeoutMs?: number;
}

/**
 * The public keys as the authorization server publishes them (#4), read over HTTPS like any
 * resource server reads its issuer's `jwks_uri`. The API's authorizer verifies access tokens with
 * them: it needs no KMS client and no KMS permission, and it trusts exactly the keys the JWKS
 * tells every other client to trust. Caching and re-reading on an unknown `kid` are the
 * verifier's (createAccessTokenVerifier); a failed read is an error, never an empty key set.
 * Plain checks, not a schema: the authorizer bundles no zod (docs/architecture.md, Bundles).
 */
export function publishedKeys(options: PublishedKeysOptions): PublicKeySource {
  const timeoutMs = options.timeoutMs ?? 3000;
  return {
    async publicKeys() {
      const response = await fetch(options.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status !== 200) {
        throw new Error(`The JWKS at ${options.url} answered ${response.status}`);
      }
      const body: unknown = await response.json();
      const entries =
        typeof body === 'object' && body !== null ? (body as { keys?: unknown }).keys : undefined;
      if (!Array.isArray(entries)) throw new Error(`The JWKS at ${options.url} is not a JSON Web Key Set`);
      return entries.flatMap((entry) => {
        const key = signingKeyOf(entry);
        return key ? [key] : [];
      });
    },
  };
}

/** An EC P-256 signing key of the set; any other entry (RSA, encryption, malformed) is skipped. */
function signingKeyOf(entry: unknown): PublicJwk | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const { kty, crv, x, y, kid, alg, use } = entry as Record<string, unknown>;
  const filled = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
  if (kty !== 'EC' || crv !== 'P-256' || !filled(x) || !filled(y) || !filled(kid)) return null;
  if ((alg !== undefined && alg !== 'ES256') || (use !== undefined && use !== 'sig')) return null;
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
}
