import { KMSClient } from '@aws-sdk/client-kms';
import { jwksUri } from '../app/oauth-metadata';
import { type AccessTokenVerifier, createAccessTokenVerifier } from '../auth/access-token-verification';
import { publishedKeys } from '../auth/published-keys';
import { createKmsSigner } from '../auth/signers/kms-signer';
import type { Signer } from '../auth/signers/signer';
import { configuredRegion } from './aws';

/**
 * The keys side of OAuth for the functions that issue, publish or verify access tokens: the
 * issuer (the API's base URL, also the tokens' audience), the signer and the verifier on its
 * public keys. On AWS they are built from the environment (`ISSUER_URL`, `SIGNING_KEY_ALIAS`,
 * `SIGNING_KEY_PREVIOUS_ALIAS`, set by the CDK API stack) by the compositions of the functions
 * that need them; the local server builds its own (the local signer, the server's base URL).
 * Kept apart from the functions' contexts so that only these functions bundle the KMS client.
 */
export interface OAuthKeys {
  /** The API's base URL, without a trailing slash: `iss` and `aud` of every access token. */
  readonly issuer: string;
  readonly signer: Signer;
  readonly accessTokens: AccessTokenVerifier;
}

/**
 * The access-token verifier of a function that only verifies tokens (the authorizer), on AWS: the
 * issuer's published keys read over HTTPS (its `jwks_uri`), so the function bundles no KMS client
 * and needs no KMS grant.
 */
export function verifierOfPublishedKeys(env: NodeJS.ProcessEnv): AccessTokenVerifier {
  const issuer = issuerFromEnvironment(env);
  return createAccessTokenVerifier({
    keys: publishedKeys({ url: jwksUri(issuer) }),
    issuer,
    audience: issuer,
  });
}

/**
 * The issuer alone, for the functions that need it and sign nothing (the sign-in pages): on AWS
 * `ISSUER_URL`, without building the KMS signer, so those functions bundle no KMS client.
 */
export function issuerFromEnvironment(env: NodeJS.ProcessEnv): string {
  if (!env.ISSUER_URL) throw new Error("ISSUER_URL is not set: the API's base URL, the tokens' issuer");
  return issuerOf(env.ISSUER_URL);
}

/** The issuer as configured: a base URL, compared byte for byte, so its trailing slash is dropped. */
export function issuerOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.search || url.hash) throw new Error(`The issuer ${baseUrl} must have no query or fragment`);
  return baseUrl.replace(/\/+$/, '');
}

/** The OAuth keys on one signer: its public keys verify the tokens, the issuer is their audience. */
export function oauthKeysOf(baseUrl: string, signer: Signer): OAuthKeys {
  const issuer = issuerOf(baseUrl);
  return {
    issuer,
    signer,
    accessTokens: createAccessTokenVerifier({ keys: signer, issuer, audience: issuer }),
  };
}

/** The OAuth keys on AWS: the KMS signer on the key `SIGNING_KEY_ALIAS` names. */
export function awsOAuthKeys(env: NodeJS.ProcessEnv): OAuthKeys {
  const baseUrl = env.ISSUER_URL;
  const currentAlias = env.SIGNING_KEY_ALIAS;
  if (!baseUrl) throw new Error("ISSUER_URL is not set: the API's base URL, the tokens' issuer");
  if (!currentAlias) throw new Error('SIGNING_KEY_ALIAS is not set: the alias of the KMS signing key');
  const previousAlias = env.SIGNING_KEY_PREVIOUS_ALIAS;
  const client = new KMSClient({ region: configuredRegion(env) });
  return oauthKeysOf(
    baseUrl,
    createKmsSigner({ client, currentAlias, ...(previousAlias ? { previousAlias } : {}) }),
  );
}
