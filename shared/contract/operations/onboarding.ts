import * as z from 'zod/mini';
import {
  awsRoleTemplate,
  azureAuthUrl,
  azureAuthUrlBody,
  childOrgEntry,
  childOrgsQuery,
  onboardingStarted,
  registerChildBody,
  registerChildResponse,
} from '../onboarding';
import type { OperationList } from '../operation-contract';
import { orgPath } from './path-params';

/**
 * Onboarding a child org and its clouds (#16-#21), but for the two verifications and the Azure
 * consent's callback: each runs in a function of its own (onboarding-aws-verify.ts,
 * onboarding-azure-verify.ts, onboarding-azure-consent.ts), the only ones that bundle a cloud's
 * clients or the identity platform's sign-in.
 */
export const onboardingOperations = {
  registerChildViaOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/register_child',
    group: 'onboarding',
    summary: 'Register a customer (child) organization from the onboarding flow',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: orgPath,
    body: registerChildBody,
    responses: { 200: registerChildResponse },
    conflicts: true,
  },
  startOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/start',
    group: 'onboarding',
    summary: 'Create or resume the onboarding of the organization, starting with AWS',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: orgPath,
    responses: { 200: onboardingStarted },
  },
  getAwsRoleTemplate: {
    method: 'GET',
    path: '/v2/org/{org_id}/partners/onboarding/aws/cloudformation_template',
    group: 'onboarding',
    summary: "The CloudFormation template of the onboarding role in the customer's AWS account",
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: orgPath,
    responses: { 200: awsRoleTemplate },
  },
  createAzureAuthUrl: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/azure/auth-url',
    group: 'onboarding',
    summary: 'The URL the customer opens to grant access to an Azure subscription',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: orgPath,
    body: azureAuthUrlBody,
    conflicts: true,
    responses: { 200: azureAuthUrl },
  },
  listChildOrgs: {
    method: 'GET',
    path: '/v2/org/{org_id}/partners/onboarding/child-orgs',
    group: 'onboarding',
    summary: "The partner's child organizations with their onboarding checklists",
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: orgPath,
    query: childOrgsQuery,
    paginated: true,
    responses: { 200: z.lazy(() => z.array(childOrgEntry)) },
  },
} satisfies OperationList;
