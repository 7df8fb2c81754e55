import type { Verification } from './checklist';

/** Where the account's Cost and Usage export is delivered, as the customer names it (#18). */
export interface ExistingCur {
  readonly region: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly reportName: string;
}

export interface AwsOnboarding {
  readonly accountId: string;
  readonly existingCur: ExistingCur | null;
  readonly verification: Verification | null;
}

/** What the identity platform reported on the customer's admin consent. */
export interface AzureConsent {
  readonly granted: boolean;
  /** The identity platform's error and description when the customer refused or it failed. */
  readonly error: string | null;
  readonly at: string;
  /**
   * Who proved a grant: the administrator of the tenant whose ID token the callback verified
   * (docs/onboarding.md, Azure consent). A grant without it (recorded before consent needed a
   * sign-in) does not count.
   */
  readonly signedInBy?: ConsentingAdmin;
}

/** The tenant administrator whose sign-in proved a consent, as the verified ID token names them. */
export interface ConsentingAdmin {
  /** The tenant's id (GUID, the token's `tid`): what the tenant binding is keyed by. */
  readonly tenantId: string;
  /** The user's object id (`oid`). */
  readonly objectId: string;
  /** The directory role (template id) that allowed the consent. */
  readonly roleId: string;
  /** The ID token's id (`uti`). */
  readonly tokenId: string;
}

/**
 * The sign-in the callback started after Microsoft's admin-consent redirect: what its second
 * step needs, single use like the consent link (docs/onboarding.md, Azure consent).
 */
export interface PendingTenantSignIn {
  /** The nonce of the sign-in's `state` (the callback's signed state, like a consent link's). */
  readonly stateNonce: string;
  /** The tenant signed in to (its GUID). */
  readonly tenantId: string;
  /** The OpenID Connect nonce the ID token must carry. */
  readonly nonce: string;
  /** The PKCE code verifier (secret: never leaves the service but to the token endpoint). */
  readonly codeVerifier: string;
  /** Set by the callback that redeems the code: of callbacks racing with one answer, one redeems. */
  readonly claimed?: boolean;
}

export interface AzureOnboarding {
  readonly tenantId: string;
  readonly subscriptionId: string;
  readonly consent: AzureConsent | null;
  /**
   * The nonce of the one consent link the callback still accepts (the latest #20's); null once a
   * callback consumed it. Records written before links were single use have none.
   */
  readonly consentNonce?: string | null;
  /** The sign-in under way after the admin-consent redirect; null or absent: none. */
  readonly signIn?: PendingTenantSignIn | null;
  readonly verification: Verification | null;
}

export type OnboardingProvider = 'aws' | 'azure';

/**
 * One org's onboarding (docs/onboarding.md), `ORG#<org>` / `ONBOARDING`: created by #17 (start), then
 * filled in per provider by the verifications and the Azure consent.
 */
export interface OnboardingRecord {
  readonly orgId: string;
  /** A version-4 UUID, which #18 must name. */
  readonly onboardingId: string;
  readonly provider: OnboardingProvider;
  /** Secret: only the CloudFormation template shows it (external-id.ts). */
  readonly externalId: string;
  readonly aws: AwsOnboarding | null;
  readonly azure: AzureOnboarding | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export function newOnboardingRecord(input: {
  readonly orgId: string;
  readonly onboardingId: string;
  readonly externalId: string;
  readonly at: string;
}): OnboardingRecord {
  return {
    orgId: input.orgId,
    onboardingId: input.onboardingId,
    provider: 'aws',
    externalId: input.externalId,
    aws: null,
    azure: null,
    createdAt: input.at,
    updatedAt: input.at,
  };
}

/** Whether the Azure part holds a consent the tenant's administrator proved by signing in. */
export function hasProvenConsent(azure: AzureOnboarding | null | undefined): boolean {
  return Boolean(azure?.consent?.granted && azure.consent.signedInBy);
}
