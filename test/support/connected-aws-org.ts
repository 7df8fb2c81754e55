import { changeSimulatedCloud, connectedAwsAccount } from '../../local/simulated-cloud';
import { createOrg } from '../../shared/app/operator';
import type { AppContext } from '../../shared/app/ports';
import { check } from '../../shared/domain/onboarding/checklist';
import { newOnboardingRecord } from '../../shared/domain/onboarding/onboarding-record';
import { randomIds } from '../../shared/runtime/app-context';

/**
 * A new org whose AWS account `accountId` is connected as the usage sync needs it: its onboarding
 * record names a verified Data Exports export (`cur-<account>`, prefix `cur`, `hourly`), and the
 * simulated cloud (under `dir`) has that account, trusting the service account with the org's
 * external id. Answers the org's id.
 */
export async function connectedAwsOrg(
  ctx: AppContext,
  cloud: { readonly dir: string; readonly serviceAccountId: string },
  accountId: string,
  at: Date,
): Promise<string> {
  const org = await createOrg(ctx, `Synced ${randomIds.uuid()}`, null);
  const externalId = `cpo-${randomIds.uuid().replaceAll('-', '')}`;
  const checkedAt = at.toISOString();
  await ctx.repos.onboarding.createOrGet({
    ...newOnboardingRecord({ orgId: org.id, onboardingId: randomIds.uuid(), externalId, at: checkedAt }),
    aws: {
      accountId,
      existingCur: { region: 'us-east-1', bucket: `cur-${accountId}`, prefix: 'cur', reportName: 'hourly' },
      verification: {
        checkedAt,
        items: [check('cur_export', 'available', 'Data Exports hourly, Parquet')],
      },
    },
  });
  await changeSimulatedCloud(cloud.dir, (simulated) => {
    simulated.aws[accountId] = connectedAwsAccount({
      serviceAccountId: cloud.serviceAccountId,
      externalId,
      bucket: `cur-${accountId}`,
      prefix: 'cur',
      reportName: 'hourly',
    });
  });
  return org.id;
}
