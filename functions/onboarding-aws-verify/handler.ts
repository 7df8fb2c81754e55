import { verifyAwsOnboarding } from '../../shared/app/onboarding';
import { checklistItemView } from '../../shared/contract/onboarding';
import { onboardingAwsVerifyOperations } from '../../shared/contract/operations/onboarding-aws-verify';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';
import { functionContext } from '../../shared/runtime/current';
import { awsVerifier } from '../../shared/runtime/onboarding-aws-verify';
import { onboardingRepository, orgRepository } from '../../shared/store/store';

/** The repositories this function's use case reads and writes; it bundles no other. */
const appContext = functionContext({ onboarding: onboardingRepository, orgs: orgRepository });

/**
 * #18: verifies a customer's AWS account through its onboarding role (DESIGN §11). The only
 * function with the AWS clients of the checks; the EC2 client of the DryRun purchase makes most
 * of its bundle.
 */
export const handler = createGroupHandler(
  onboardingAwsVerifyOperations,
  {
    verifyAwsOnboarding: async ({ principal, pathParams, body }) => {
      const cur = body.existing_cur;
      const ctx = { ...appContext(), verifier: awsVerifier() };
      const items = await verifyAwsOnboarding(ctx, principal, pathParams.org_id, {
        onboardingId: body.onboarding_id,
        accountId: body.account_id,
        existingCur: cur
          ? { region: cur.region, bucket: cur.bucket, prefix: cur.prefix, reportName: cur.report_name }
          : null,
      });
      return items.map(checklistItemView);
    },
  },
  { bodies: jsonBodies },
);
