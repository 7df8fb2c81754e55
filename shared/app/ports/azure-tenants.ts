import type { FirstUseOfToken, VerifiedTenantAdmin } from '../../auth/tenant-id-token';

/** Ports of the Azure consent's proof (docs/onboarding.md, Azure consent): the sign-in and the bindings. */

/** A sign-in to a tenant begun: where to send the user, and what the callback must keep to finish it. */
export interface TenantSignInStart {
  /** The tenant's authorization endpoint with the request (code flow, PKCE S256, nonce, state). */
  readonly url: string;
  /** The PKCE code verifier (secret: kept server-side until the code is redeemed). */
  readonly codeVerifier: string;
  readonly nonce: string;
}

/**
 * An OpenID Connect sign-in of a tenant's user to the service's application on the Microsoft
 * identity platform (locally, the simulated tenant): the tenant's discovery document names the
 * endpoints and the keys, the code is redeemed as a confidential client, and the ID token is
 * verified against the issuer's published keys (shared/auth/tenant-id-token.ts). Failures are
 * TenantSignInErrors.
 */
export interface TenantSignIn {
  begin(request: {
    readonly tenantId: string;
    readonly redirectUri: string;
    readonly state: string;
  }): Promise<TenantSignInStart>;
  /** Redeems the code and answers the administrator its verified ID token names. */
  finish(request: {
    readonly tenantId: string;
    readonly code: string;
    readonly redirectUri: string;
    readonly codeVerifier: string;
    readonly nonce: string;
    readonly firstUse: FirstUseOfToken;
  }): Promise<VerifiedTenantAdmin>;
}

/** Why a tenant could not be bound to an org: the tenant or the subscription is another org's. */
export type TenantBindingConflict = 'tenant' | 'subscription';

/** One tenant, one org (docs/onboarding.md, One tenant, one org). */
export interface AzureTenantRepository {
  /** The orgs the tenant and the subscription are bound to (null: unbound). */
  owners(
    tenantId: string,
    subscriptionId: string,
  ): Promise<{
    readonly tenant: string | null;
    readonly subscription: string | null;
  }>;
  /**
   * Binds the tenant and the subscription to the org, both or neither (a conditional write each,
   * in one transaction): free or already the org's. Answers what is another org's, or null.
   */
  bind(binding: {
    readonly orgId: string;
    readonly tenantId: string;
    readonly subscriptionId: string;
    readonly at: string;
  }): Promise<TenantBindingConflict | null>;
  /**
   * Moves the tenant and every subscription bound under it to `toOrgId`, with an audit item;
   * answers the org it was bound to (null: the tenant is not bound, nothing is written).
   */
  rebind(change: {
    readonly tenantId: string;
    readonly toOrgId: string;
    readonly at: string;
    readonly by: string;
    readonly reason: string;
  }): Promise<{ readonly fromOrgId: string; readonly subscriptionIds: readonly string[] } | null>;
  /** Records an ID token's id as used (until it expires); false when it was used before. */
  firstUseOfIdToken: FirstUseOfToken;
}
