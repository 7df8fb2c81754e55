import { type AzureAuthUrlContext, createAzureAuthUrl } from '../../shared/app/azure-consent';
import { awsRoleTemplate, registerChildViaOnboarding, startOnboarding } from '../../shared/app/onboarding';
import { type ChildOrgOverviewContext, listChildOrgOverviews } from '../../shared/app/onboarding-child-orgs';
import type { ContextWith } from '../../shared/app/ports';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { checklistItemView } from '../../shared/contract/onboarding';
import { onboardingOperations } from '../../shared/contract/operations/onboarding';
import { createGroupHandler } from '../../shared/http/group-handler';
import { withHeaders } from '../../shared/http/operation';
import { paginationHeaderName, paginationInfo } from '../../shared/http/pagination';
import { jsonBodies } from '../../shared/http/request-bodies';
import { consentCallbackUrl, type OnboardingRuntime } from '../../shared/runtime/onboarding';

/**
 * What the onboarding function runs with: the repositories its use cases read and write, the
 * onboarding settings, and where the consent callback is.
 */
export type OnboardingFunctionContext = AzureAuthUrlContext &
  ContextWith<
    'onboarding' | 'orgs' | 'orgUpdates' | 'memberships' | 'users' | 'usageSyncStates' | 'azureTenants'
  > &
  ChildOrgOverviewContext &
  Pick<OnboardingRuntime, 'publicApiUrl'>;

/**
 * Onboarding of a partner's customers and their clouds (#16, #17, #20, #21 and the role template;
 * docs/onboarding.md). The verifications (#18, #19) and the consent callback are functions of
 * their own.
 */
export function createOnboardingHandler(
  onboardingContext: () => OnboardingFunctionContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    onboardingOperations,
    {
      registerChildViaOnboarding: async ({ principal, pathParams, body }) => {
        const { orgId } = await registerChildViaOnboarding(
          onboardingContext(),
          principal,
          pathParams.org_id,
          {
            company: body.company,
            partnerSubscriptionId: body.partner_subscription_id ?? null,
            email: body.email ?? null,
          },
        );
        return { org_id: orgId };
      },

      startOnboarding: async ({ principal, pathParams }) => {
        const record = await startOnboarding(onboardingContext(), principal, pathParams.org_id);
        return { onboarding_id: record.onboardingId };
      },

      getAwsRoleTemplate: async ({ principal, pathParams }) => {
        const { template, quickCreateUrl } = await awsRoleTemplate(
          onboardingContext(),
          principal,
          pathParams.org_id,
        );
        return { template, quick_create_url: quickCreateUrl };
      },

      createAzureAuthUrl: async ({ principal, pathParams, body }) => {
        const url = await createAzureAuthUrl(onboardingContext(), principal, pathParams.org_id, {
          tenantId: body.tenant_id,
          subscriptionId: body.subscription_id,
          callbackUrl: consentCallbackUrl(onboardingContext()),
        });
        return { url };
      },

      listChildOrgs: async ({ principal, pathParams, query }) => {
        const request = { page: query.page, pageSize: query.page_size };
        const { total, items } = await listChildOrgOverviews(
          onboardingContext(),
          principal,
          pathParams.org_id,
          request,
        );
        const body = items.map((child) => ({
          created_at: child.createdAt,
          org_id: child.orgId,
          org_name: child.orgName,
          org_checklist: child.orgChecklist.map(checklistItemView),
          integration_checklist: {
            aws: child.integrationChecklist.aws.map(checklistItemView),
            azure: child.integrationChecklist.azure.map(checklistItemView),
          },
        }));
        return withHeaders(body, { [paginationHeaderName]: JSON.stringify(paginationInfo(total, request)) });
      },
    },
    { bodies: jsonBodies, requestThrottle },
  );
}
