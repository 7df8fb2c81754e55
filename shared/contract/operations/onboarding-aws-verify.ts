import { awsVerifyBody, checklist } from '../onboarding';
import type { OperationList } from '../operation-contract';
import { orgPath } from './path-params';

/** #18: the AWS verification, in its own function: the only one with the AWS clients of the checks. */
export const onboardingAwsVerifyOperations = {
  verifyAwsOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/aws/verify',
    group: 'onboarding-aws-verify',
    summary: 'Verify the AWS integration of the organization',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: orgPath,
    body: awsVerifyBody,
    responses: { 200: checklist },
  },
} satisfies OperationList;
