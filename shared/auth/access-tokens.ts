import type { Signer } from './signers/signer';

/** Access tokens live 15 minutes (docs/oauth.md). */
export const ACCESS_TOKEN_SECONDS = 900;

/** The claims of an access token (docs/oauth.md; RFC 9068's profile). */
export interface AccessTokenClaims {
  /** The issuer: the API's base URL. */
  readonly iss: string;
  /** The user id (the user's e-mail). */
  readonly sub: string;
  /** The resource the token is for (RFC 8707), by default the API's base URL. */
  readonly aud: string;
  readonly org_id: string;
  /** Space-separated scopes. */
  readonly scope: string;
  readonly client_id: string;
  readonly jti: string;
  /** The refresh-token family the token was issued in: revoking the family refuses the token. */
  readonly fam: string;
  readonly iat: number;
  readonly exp: number;
}

/**
 * Signs the claims as a compact ES256 JWS with the signer's current key (`typ: at+jwt`, RFC 9068).
 * The signing input is built here and only the signature comes from the signer, so a KMS key
 * signs the exact bytes a verifier checks.
 */
export async function issueAccessToken(signer: Signer, claims: AccessTokenClaims): Promise<string> {
  const key = await signer.signingKey();
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid: key.kid }));
  const payload = base64url(JSON.stringify(claims));
  const signingInput = `${header}.${payload}`;
  const signature = await key.sign(new TextEncoder().encode(signingInput));
  if (signature.length !== 64) throw new Error(`An ES256 signature is 64 bytes, not ${signature.length}`);
  return `${signingInput}.${Buffer.from(signature).toString('base64url')}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
