import { type AwsVerificationContext, verifyAwsOnboarding } from '../../shared/app/onboarding';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { checklistItemView } from '../../shared/contract/onboarding';
import { onboardingAwsVerifyOperations } from '../../shared/contract/operations/onboarding-aws-verify';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';

/**
 * #18: verifies a customer's AWS account through its onboarding role (docs/onboarding.md). The only
 * function with the AWS clients of the checks; the EC2 client of the DryRun purchase makes most
 * of its bundle.
 */
export function createOnboardingAwsVerifyHandler(
  verificationContext: () => AwsVerificationContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    onboardingAwsVerifyOperations,
    {
      verifyAwsOnboarding: async ({ principal, pathParams, body }) => {
        const cur = body.existing_cur;
        const items = await verifyAwsOnboarding(verificationContext(), principal, pathParams.org_id, {
          onboardingId: body.onboarding_id,
          accountId: body.account_id,
          existingCur: cur
            ? { region: cur.region, bucket: cur.bucket, prefix: cur.prefix, reportName: cur.report_name }
            : null,
        });
        return items.map(checklistItemView);
      },
    },
    { bodies: jsonBodies, requestThrottle },
  );
}
