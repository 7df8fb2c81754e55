import { cloudProviders } from '../domain/cloud-providers';
import { ForbiddenError } from '../domain/errors';
import { awsFeatures } from '../domain/onboarding/aws-checks';
import { azureFeatures } from '../domain/onboarding/azure-checks';
import { type CheckResult, uncheckedList, type Verification } from '../domain/onboarding/checklist';
import { orgChecklist } from '../domain/onboarding/org-checklist';
import { usageSyncCheck } from '../domain/onboarding/usage-sync-check';
import { hasScope } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { PARTNER_SCOPE } from './onboarding';
import { loadPartnerOrgFor } from './org-access';
import type { ContextWith, PlanRepository, UsageRepository } from './ports';

/**
 * What the listing reads: of an org's usage and plans only whether it has any, so a function
 * serving it builds just those reads (shared/store/usage-states.ts, plan-sets.ts) and bundles
 * neither the usage imports nor the plan repository.
 */
export type ChildOrgOverviewContext = ContextWith<
  'orgs' | 'memberships' | 'onboarding' | 'usageSyncStates'
> & {
  readonly repos: {
    readonly usage: Pick<UsageRepository, 'listProvidersWithUsage'>;
    readonly plans: Pick<PlanRepository, 'planSet'>;
  };
};

export interface ChildOrgOverview {
  readonly createdAt: string;
  readonly orgId: string;
  readonly orgName: string;
  readonly orgChecklist: readonly CheckResult[];
  readonly integrationChecklist: {
    readonly aws: readonly CheckResult[];
    readonly azure: readonly CheckResult[];
  };
}

/**
 * #21: one page of the partner's children, oldest first, each with its checklists: what it set
 * up in the service, and per provider the last verification (`unknown` before any) followed by
 * how its usage sync stands (`usage_sync`, docs/usage-sync.md). Only the page's children are
 * read in detail.
 */
export async function listChildOrgOverviews(
  ctx: ChildOrgOverviewContext,
  principal: Principal,
  partnerOrgId: string,
  page: { readonly page: number; readonly pageSize: number },
): Promise<{ readonly total: number; readonly items: ChildOrgOverview[] }> {
  if (!hasScope(principal, PARTNER_SCOPE)) {
    throw new ForbiddenError(`This operation needs the scope ${PARTNER_SCOPE}`);
  }
  const partner = await loadPartnerOrgFor(ctx, principal, partnerOrgId);
  const links = (await ctx.repos.orgs.listChildLinks(partner.id)).sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.childOrgId.localeCompare(b.childOrgId),
  );
  const start = (page.page - 1) * page.pageSize;
  const items = await Promise.all(
    links.slice(start, start + page.pageSize).map(async (link): Promise<ChildOrgOverview> => {
      const [org, members, providersWithUsage, planSets, onboarding, awsSync, azureSync] = await Promise.all([
        ctx.repos.orgs.get(link.childOrgId),
        ctx.repos.memberships.listByOrg(link.childOrgId),
        ctx.repos.usage.listProvidersWithUsage(link.childOrgId),
        Promise.all(cloudProviders.map((provider) => ctx.repos.plans.planSet(link.childOrgId, provider))),
        ctx.repos.onboarding.get(link.childOrgId),
        ctx.repos.usageSyncStates.get(link.childOrgId, 'aws'),
        ctx.repos.usageSyncStates.get(link.childOrgId, 'azure'),
      ]);
      return {
        createdAt: link.createdAt,
        orgId: link.childOrgId,
        orgName: org?.name ?? link.childOrgName,
        orgChecklist: orgChecklist({
          members: members.length,
          providersWithUsage,
          providersWithPlans: planSets.filter((set) => set?.computed).map((set) => set?.provider ?? ''),
          offerLinks: org ? cloudProviders.filter((provider) => org.offerLinks[provider]) : [],
        }),
        integrationChecklist: {
          aws: [
            ...lastChecklist(onboarding?.aws?.verification ?? null, awsFeatures),
            usageSyncCheck(awsSync),
          ],
          azure: [
            ...lastChecklist(onboarding?.azure?.verification ?? null, azureFeatures),
            usageSyncCheck(azureSync),
          ],
        },
      };
    }),
  );
  return { total: links.length, items };
}

function lastChecklist(
  verification: Verification | null,
  features: readonly string[],
): readonly CheckResult[] {
  return verification ? verification.items : uncheckedList(features);
}
