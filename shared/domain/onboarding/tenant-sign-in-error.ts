/**
 * Why a sign-in meant to prove an Azure admin consent was refused (docs/onboarding.md, Azure
 * consent), as a stable code: the callback answers each with a 400 page naming it, and records
 * nothing.
 */
export type TenantSignInErrorCode =
  /** The identity platform answered the sign-in with an error (the user cancelled, a policy). */
  | 'sign_in_refused'
  /** The token endpoint refused the authorization code (forged, spent, another tenant's). */
  | 'code_refused'
  /** The identity platform could not be reached or answered something else than OAuth. */
  | 'identity_platform_unavailable'
  /** The token answer held no ID token, or one that is not a JWT with the claims needed. */
  | 'id_token_malformed'
  /** The signature does not verify against the issuer's published keys. */
  | 'id_token_signature'
  | 'id_token_issuer'
  | 'id_token_tenant'
  | 'id_token_audience'
  | 'id_token_nonce'
  | 'id_token_expired'
  /** The token's id (`uti`) was accepted before. */
  | 'id_token_replayed'
  /** The user holds no directory role that may grant tenant-wide admin consent. */
  | 'not_tenant_admin';

export class TenantSignInError extends Error {
  constructor(
    readonly code: TenantSignInErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TenantSignInError';
  }
}
