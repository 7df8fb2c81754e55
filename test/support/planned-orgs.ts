import { getRecommendedPlan } from '../../shared/app/commitment-plans';
import { importUsage } from '../../shared/app/import-usage';
import { createOrg } from '../../shared/app/operator';
import type { AppContext, WithPlanComputation } from '../../shared/app/ports';
import type { Principal } from '../../shared/domain/principal';
import { alwaysOn, fleet, recordsOf, usageLines } from './usage-files';

/**
 * An org with a month of always-on m5.xlarge usage ending at the last hour, so that its
 * recommended AWS plan buys something, and a user who may apply it.
 */
export async function orgWithRecommendedPlan(
  ctx: WithPlanComputation<AppContext>,
): Promise<{ orgId: string; planId: string; user: Principal }> {
  const org = await createOrg(ctx, `Buyer ${ctx.ids.uuid()}`, null);
  const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 720 * 3_600_000).toISOString();
  await importUsage(ctx, {
    orgId: org.id,
    records: recordsOf(
      usageLines(
        start,
        720,
        fleet(4, 'web', {
          provider: 'aws',
          accountId: '111122223333',
          region: 'us-east-1',
          service: 'AmazonEC2',
          instanceType: 'm5.xlarge',
          operatingSystem: 'Linux',
          unitsAt: alwaysOn,
        }),
      ),
    ),
  });
  const user: Principal = {
    kind: 'user',
    orgId: org.id,
    userId: 'ada@example.com',
    role: 'user',
    scopes: ['*'],
  };
  const plan = await getRecommendedPlan(ctx, user, org.id, 'aws');
  if (!plan) throw new Error('no recommended plan');
  return { orgId: org.id, planId: plan.id, user };
}
