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
