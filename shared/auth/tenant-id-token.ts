import { errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { consentingRoleOf, type TenantConsentRole } from '../domain/onboarding/tenant-admin-roles';
import { TenantSignInError } from '../domain/onboarding/tenant-sign-in-error';

/**
 * The verification of the ID token that proves an Azure admin consent (docs/onboarding.md, Azure
 * consent): signed by one of the issuer's published keys, issued by the tenant's own issuer for
 * the tenant (`tid`) to the service's application (`aud`), for this sign-in (`nonce`), not
 * expired, never accepted before (`uti`), and held by a user with a directory role that may grant
 * tenant-wide consent (`wids`). Each refusal is a TenantSignInError with its own code.
 */

/** What the ID token must say, besides being signed by the issuer's keys. */
export interface ExpectedIdToken {
  /** `<authority>/<tenant id>/v2.0`: the tenant's own issuer (never `common`'s template). */
  readonly issuer: string;
  /** The tenant's id (a GUID): the token's `tid`. */
  readonly tenantId: string;
  /** The service's application (client) id: the token's `aud`. */
  readonly audience: string;
  /** The nonce this sign-in sent. */
  readonly nonce: string;
}

/** The administrator the ID token proves signed in. */
export interface VerifiedTenantAdmin {
  readonly tenantId: string;
  /** The user's object id in the tenant (`oid`). */
  readonly objectId: string;
  /** The role that allows the consent. */
  readonly role: TenantConsentRole;
  /** The token's id (`uti`, else `jti`), kept so that it is accepted once. */
  readonly tokenId: string;
  /** When the token expires (ISO 8601). */
  readonly expiresAt: string;
}

/** Records a token id as used; answers false when it was used before (a replay). */
export type FirstUseOfToken = (tokenId: string, expiresAt: string) => Promise<boolean>;

/** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds. */
export const idTokenClockToleranceSeconds = 60;

export async function verifyTenantIdToken(
  idToken: string,
  expected: ExpectedIdToken,
  keys: JWTVerifyGetKey,
  options: { readonly now: Date; readonly firstUse: FirstUseOfToken },
): Promise<VerifiedTenantAdmin> {
  const payload = await verifiedPayload(idToken, keys, options.now);
  if (payload.iss !== expected.issuer) {
    throw new TenantSignInError('id_token_issuer', `the ID token was issued by ${String(payload.iss)}`);
  }
  const tenantId = stringClaim(payload, 'tid');
  if (tenantId.toLowerCase() !== expected.tenantId.toLowerCase()) {
    throw new TenantSignInError('id_token_tenant', `the ID token is of tenant ${tenantId}, not of this one`);
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (audiences.length !== 1 || audiences[0] !== expected.audience) {
    throw new TenantSignInError('id_token_audience', "the ID token is not for the service's application");
  }
  if (payload.nonce !== expected.nonce) {
    throw new TenantSignInError('id_token_nonce', 'the ID token is not of this sign-in');
  }
  const objectId = stringClaim(payload, 'oid');
  const wids = Array.isArray(payload.wids) ? payload.wids.filter((id) => typeof id === 'string') : [];
  const role = consentingRoleOf(wids);
  if (!role) {
    throw new TenantSignInError(
      'not_tenant_admin',
      'the user who signed in holds no directory role that may grant tenant-wide admin consent (Global Administrator, Privileged Role Administrator, Cloud Application Administrator or Application Administrator)',
    );
  }
  const tokenId = typeof payload.uti === 'string' ? payload.uti : stringClaim(payload, 'jti');
  const expiresAt = new Date((payload.exp as number) * 1000).toISOString();
  if (!(await options.firstUse(tokenId, expiresAt))) {
    throw new TenantSignInError('id_token_replayed', 'this ID token was used before');
  }
  return { tenantId, objectId, role, tokenId, expiresAt };
}

async function verifiedPayload(idToken: string, keys: JWTVerifyGetKey, now: Date): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(idToken, keys, {
      algorithms: ['RS256'],
      currentDate: now,
      clockTolerance: idTokenClockToleranceSeconds,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'tid', 'oid', 'nonce'],
    });
    return payload;
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new TenantSignInError('id_token_expired', 'the ID token has expired');
    }
    if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
      throw new TenantSignInError(
        'id_token_signature',
        "the ID token's signature does not verify against the issuer's published keys",
      );
    }
    if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
      throw new TenantSignInError(
        'identity_platform_unavailable',
        `the issuer's published keys could not be read (${error.code})`,
      );
    }
    if (error instanceof errors.JOSEError) {
      throw new TenantSignInError('id_token_malformed', `the ID token is not valid (${error.code})`);
    }
    throw error;
  }
}

function stringClaim(payload: JWTPayload, name: string): string {
  const value = payload[name];
  if (typeof value !== 'string' || value === '') {
    throw new TenantSignInError('id_token_malformed', `the ID token has no ${name}`);
  }
  return value;
}
