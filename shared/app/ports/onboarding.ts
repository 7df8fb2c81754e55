import type { CheckResult } from '../../domain/onboarding/checklist';
import type { CostExplorerProbe } from '../../domain/onboarding/cost-explorer-probe';
import type {
  AwsOnboarding,
  AzureOnboarding,
  ExistingCur,
  OnboardingProvider,
  OnboardingRecord,
} from '../../domain/onboarding/onboarding-record';

/** Ports of onboarding: the onboarding records and the verifiers of customers' clouds. */

/** Onboarding records, one per org (docs/onboarding.md, docs/onboarding.md). */
export interface OnboardingRepository {
  get(orgId: string): Promise<OnboardingRecord | null>;
  /** Stores `record` unless the org has one; answers the record as stored either way. */
  createOrGet(record: OnboardingRecord): Promise<OnboardingRecord>;
  /**
   * Sets the provider's part of the record (and the current provider) if the org's onboarding is
   * still `onboardingId`; answers the record as stored after the write, or null when it is not.
   */
  update(
    orgId: string,
    onboardingId: string,
    change: {
      readonly provider?: OnboardingProvider;
      readonly aws?: AwsOnboarding;
      readonly azure?: AzureOnboarding;
      readonly at: string;
      /** Writes only if the record's Azure part still expects this consent nonce (single use). */
      readonly consumingConsentNonce?: string;
      /** Writes only if the record's Azure part still awaits the sign-in of this state nonce. */
      readonly consumingSignInNonce?: string;
      /** As consumingSignInNonce, and only if no callback claimed that sign-in yet. */
      readonly claimingSignInNonce?: string;
    },
  ): Promise<OnboardingRecord | null>;
  /** The last Cost Explorer probe of the org's AWS account `accountId`; null: none kept. */
  getCostExplorerProbe(orgId: string, accountId: string): Promise<CostExplorerProbe | null>;
  /**
   * Claims the hour's Cost Explorer probe of the org's account (result null) unless that account
   * holds a probe later than `notBefore`; answers whether it did.
   */
  claimCostExplorerProbe(
    orgId: string,
    probe: { readonly accountId: string; readonly at: string },
    notBefore: string,
  ): Promise<boolean>;
  /**
   * Settles the claim made at `claim.at`: keeps `result` as the account's probe for the hour, or,
   * when null, gives the claim up (the next verification probes again). A later claim is left be.
   */
  settleCostExplorerProbe(
    orgId: string,
    claim: { readonly accountId: string; readonly at: string },
    result: CheckResult | null,
  ): Promise<void>;
}

/** What the verifier needs to check an AWS account through its onboarding role. */
export interface AwsVerificationRequest {
  readonly accountId: string;
  readonly roleArn: string;
  readonly externalId: string;
  readonly existingCur: ExistingCur | null;
  /**
   * The last Cost Explorer probe's result, answered in place of a call (at most one probe an hour
   * per account, docs/onboarding.md); absent: the verification calls Cost Explorer.
   */
  readonly costExplorerResult?: CheckResult;
}

export interface AzureVerificationRequest {
  readonly tenantId: string;
  readonly subscriptionId: string;
  /** What the consent callback recorded; null when the customer has not come back (yet). */
  readonly consent: AzureOnboarding['consent'];
}

/**
 * Checks a customer's AWS account (docs/onboarding.md): one result per checklist feature, in the
 * checklist's order. A failing provider call becomes its check's `missing` or `unknown` with the
 * provider's message; the verification itself does not fail for it.
 */
export interface AwsVerifier {
  verifyAws(request: AwsVerificationRequest): Promise<CheckResult[]>;
}

/** Checks a customer's Azure tenant and subscription, as AwsVerifier does an AWS account. */
export interface AzureVerifier {
  verifyAzure(request: AzureVerificationRequest): Promise<CheckResult[]>;
}

/**
 * Both verifiers: the simulated cloud and the tests' (each verification runs in its own Lambda
 * function on AWS, with its provider's adapter only).
 */
export interface CloudVerifier extends AwsVerifier, AzureVerifier {}
