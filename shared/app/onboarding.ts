import { ConflictError, ForbiddenError, NotFoundError } from '../domain/errors';
import { onboardingRoleArn } from '../domain/onboarding/aws-checks';
import { onboardingRoleTemplate, quickCreateUrl } from '../domain/onboarding/aws-role-template';
import { azureFeatures, checksWithoutConsent } from '../domain/onboarding/azure-checks';
import { type CheckResult, check } from '../domain/onboarding/checklist';
import {
  costExplorerDecision,
  costExplorerProbeIntervalMs,
  keepsCostExplorerResult,
} from '../domain/onboarding/cost-explorer-probe';
import { externalIdFromUuid } from '../domain/onboarding/external-id';
import {
  type ExistingCur,
  newOnboardingRecord,
  type OnboardingRecord,
} from '../domain/onboarding/onboarding-record';
import type { OrgPlacement } from '../domain/orgs';
import { hasScope } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { loadOrgAsPartnerFor } from './org-access';
import { registerChildOrg } from './partner-orgs';
import type { AwsVerifier, AzureVerifier, ContextWith } from './ports';

/** The scope every onboarding endpoint needs (docs/http.md). */
export const PARTNER_SCOPE = 'partner:write';

/** What onboarding's template and consent use cases need beside the store: the service's identities. */
export interface OnboardingSettings {
  /** The AWS account the service runs in: the principal the customer's role trusts. */
  readonly serviceAwsAccountId: string;
  /** Where the operator published the role template for quick create (an S3 URL); null: none. */
  readonly awsTemplateUrl: string | null;
  /** The service's Microsoft Entra application (multi-tenant) the customer consents to. */
  readonly azureClientId: string;
  /**
   * The identity platform's base URL (`https://login.microsoftonline.com`); locally, the local
   * server's simulated consent page.
   */
  readonly azureAuthority: string;
  /** The secret that signs the consent `state`; read once, when first needed. */
  stateSecret(): Promise<string>;
}

/** The repositories the onboarding use cases that verify or sign read and write. */
export type OnboardingRepositories = 'onboarding' | 'orgs';

/** The role template's and the Azure consent's use cases: the store and the service's identities. */
export interface OnboardingContext extends ContextWith<OnboardingRepositories> {
  readonly onboarding: OnboardingSettings;
}

/** #18's use case: the store and the AWS verifier (the function that runs it bundles no other). */
export interface AwsVerificationContext extends ContextWith<OnboardingRepositories> {
  readonly verifier: AwsVerifier;
}

/** #19's use case: the store and the Azure verifier. */
export interface AzureVerificationContext extends ContextWith<OnboardingRepositories> {
  readonly verifier: AzureVerifier;
}

function requirePartnerScope(principal: Principal): void {
  if (!hasScope(principal, PARTNER_SCOPE)) {
    throw new ForbiddenError(`This operation needs the scope ${PARTNER_SCOPE}`);
  }
}

/**
 * The org an onboarding request is about: the partner's own org or one of its children; for a
 * member, its own org, or a child of its partner org, with the `admin` role (403 for other
 * roles). Other orgs answer 404.
 */
export async function loadOnboardingOrgFor(
  ctx: ContextWith<'orgs'>,
  principal: Principal,
  orgId: string,
): Promise<OrgPlacement> {
  requirePartnerScope(principal);
  return loadOrgAsPartnerFor(ctx, principal, orgId);
}

/** #16: the partner's short form of #14, the same use case (a duplicate name is the same 409). */
export async function registerChildViaOnboarding(
  ctx: ContextWith<'memberships' | 'orgUpdates' | 'orgs' | 'users'>,
  principal: Principal,
  partnerOrgId: string,
  input: {
    readonly company: string;
    readonly partnerSubscriptionId: string | null;
    readonly email: string | null;
  },
): Promise<{ readonly orgId: string }> {
  requirePartnerScope(principal);
  const { org } = await registerChildOrg(ctx, principal, partnerOrgId, {
    name: input.company,
    partnerSubscriptionId: input.partnerSubscriptionId,
    domain: null,
    primaryAddress: null,
    offerLinks: {},
    members: input.email ? [{ email: input.email, role: 'admin', name: null }] : [],
  });
  return { orgId: org.id };
}

/** The org's onboarding record, created when it has none (#17; operators: the demo seed, the admin CLI). */
export async function ensureOnboarding(
  ctx: ContextWith<'onboarding'>,
  orgId: string,
): Promise<OnboardingRecord> {
  const existing = await ctx.repos.onboarding.get(orgId);
  if (existing) return existing;
  return ctx.repos.onboarding.createOrGet(
    newOnboardingRecord({
      orgId,
      onboardingId: ctx.ids.uuid(),
      externalId: externalIdFromUuid(ctx.ids.uuid()),
      at: ctx.clock.now().toISOString(),
    }),
  );
}

/** #17: creates the org's onboarding record, or answers the one it has. */
export async function startOnboarding(
  ctx: ContextWith<'onboarding' | 'orgs'>,
  principal: Principal,
  orgId: string,
): Promise<OnboardingRecord> {
  const org = await loadOnboardingOrgFor(ctx, principal, orgId);
  return ensureOnboarding(ctx, org.id);
}

/** The AWS template endpoint: the role template with the org's external id (the only place it shows). */
export async function awsRoleTemplate(
  ctx: OnboardingContext,
  principal: Principal,
  orgId: string,
): Promise<{ readonly template: Record<string, unknown>; readonly quickCreateUrl: string }> {
  const org = await loadOnboardingOrgFor(ctx, principal, orgId);
  const record = await ensureOnboarding(ctx, org.id);
  const cur = record.aws?.existingCur ?? null;
  const location = { exportBucket: cur?.bucket ?? null, exportPrefix: cur?.prefix ?? null };
  return {
    template: onboardingRoleTemplate({
      serviceAccountId: ctx.onboarding.serviceAwsAccountId,
      externalId: record.externalId,
      ...location,
    }),
    quickCreateUrl: quickCreateUrl({
      templateUrl: ctx.onboarding.awsTemplateUrl,
      externalId: record.externalId,
      ...location,
    }),
  };
}

async function loadStartedOnboarding(
  ctx: ContextWith<'onboarding'>,
  orgId: string,
  onboardingId: string,
): Promise<OnboardingRecord> {
  const record = await ctx.repos.onboarding.get(orgId);
  if (!record || record.onboardingId !== onboardingId) {
    throw new NotFoundError(`Onboarding ${onboardingId} not found`);
  }
  return record;
}

/** #18: checks the account through its onboarding role and records the checklist. */
export async function verifyAwsOnboarding(
  ctx: AwsVerificationContext,
  principal: Principal,
  orgId: string,
  input: {
    readonly onboardingId: string;
    readonly accountId: string;
    readonly existingCur: ExistingCur | null;
  },
): Promise<CheckResult[]> {
  const org = await loadOnboardingOrgFor(ctx, principal, orgId);
  const record = await loadStartedOnboarding(ctx, org.id, input.onboardingId);
  const started = ctx.clock.now();
  const costExplorer = await costExplorerPlan(ctx, org.id, input.accountId, started);
  const items = await ctx.verifier.verifyAws({
    accountId: input.accountId,
    roleArn: onboardingRoleArn(input.accountId),
    externalId: record.externalId,
    existingCur: input.existingCur,
    ...(costExplorer.action === 'reuse' ? { costExplorerResult: costExplorer.result } : {}),
  });
  const at = ctx.clock.now().toISOString();
  const probed = items.find((item) => item.feature === 'cost_explorer_access');
  const stored = await ctx.repos.onboarding.update(org.id, record.onboardingId, {
    provider: 'aws',
    aws: {
      accountId: input.accountId,
      existingCur: input.existingCur,
      verification: { checkedAt: at, items },
    },
    at,
  });
  if (costExplorer.action === 'probe') {
    // This verification's claim becomes the account's result for the hour, or is given up when
    // Cost Explorer gave no answer worth keeping (the next verification probes again).
    await ctx.repos.onboarding.settleCostExplorerProbe(
      org.id,
      { accountId: input.accountId, at: started.toISOString() },
      keepsCostExplorerResult(probed) ? probed : null,
    );
  }
  if (!stored) throw new ConflictError('The onboarding was restarted while it was verified; verify again');
  return items;
}

/**
 * Whether this verification calls Cost Explorer (it claimed the account's hour) or answers the
 * last probe's result (docs/onboarding.md): at most one probe an hour per account.
 */
async function costExplorerPlan(
  ctx: ContextWith<'onboarding'>,
  orgId: string,
  accountId: string,
  now: Date,
): Promise<ReturnType<typeof costExplorerDecision>> {
  const last = await ctx.repos.onboarding.getCostExplorerProbe(orgId, accountId);
  const decision = costExplorerDecision(last, accountId, now);
  if (decision.action === 'reuse') return decision;
  const notBefore = new Date(now.getTime() - costExplorerProbeIntervalMs).toISOString();
  const claimed = await ctx.repos.onboarding.claimCostExplorerProbe(
    orgId,
    { accountId, at: now.toISOString() },
    notBefore,
  );
  if (claimed) return decision;
  // Another verification claimed the account's hour since it was read: answer what it keeps.
  const again = costExplorerDecision(
    await ctx.repos.onboarding.getCostExplorerProbe(orgId, accountId),
    accountId,
    now,
  );
  if (again.action === 'reuse') return again;
  throw new ConflictError('Cost Explorer is being checked by another verification; verify again');
}

/** #19: checks the org's Azure tenant and subscription and records the checklist. */
export async function verifyAzureOnboarding(
  ctx: AzureVerificationContext,
  principal: Principal,
  orgId: string,
): Promise<CheckResult[]> {
  const org = await loadOnboardingOrgFor(ctx, principal, orgId);
  const record = await ctx.repos.onboarding.get(org.id);
  const azure = record?.azure;
  if (!record || !azure) {
    // Nothing to verify yet: the answer says what to do, and nothing is stored.
    return [
      check(
        azureFeatures[0],
        'missing',
        'no Azure tenant named yet: create the consent URL (auth-url) first',
      ),
      ...checksWithoutConsent('no Azure tenant named yet'),
    ];
  }
  const items = await ctx.verifier.verifyAzure({
    tenantId: azure.tenantId,
    subscriptionId: azure.subscriptionId,
    consent: azure.consent,
  });
  const at = ctx.clock.now().toISOString();
  const stored = await ctx.repos.onboarding.update(org.id, record.onboardingId, {
    azure: { ...azure, verification: { checkedAt: at, items } },
    at,
  });
  if (!stored) throw new ConflictError('The onboarding was restarted while it was verified; verify again');
  return items;
}
