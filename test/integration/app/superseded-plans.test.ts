import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { openImport } from '../../../shared/app/import-sessions';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { listPlanLineItems } from '../../../shared/app/plan-line-items';
import { listPlanResourceMatches } from '../../../shared/app/plan-resource-matches';
import type { AppContext } from '../../../shared/app/ports';
import { ConflictError, NotFoundError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { createAppContext } from '../../../shared/runtime/app-context';
import { planKey } from '../../../shared/store/keys';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { alwaysOn, fleet, gcpN2Standard8 as gcp, recordsOf, usageLines } from '../../support/usage-files';

let table: TestTable;

beforeAll(async () => {
  table = await startTestTable();
});

afterAll(async () => {
  await table.close();
});

const juneUsage = (instances: number) =>
  recordsOf(usageLines('2026-06-01T00:00:00Z', 720, fleet(instances, 'vm', { ...gcp, unitsAt: alwaysOn })));

const inOrder = { key: null, descending: false } as const;
const wholeJune = { startDate: '2026-06-01', endDate: '2026-06-30', order: inOrder };
const partOfJune = { startDate: '2026-06-10', endDate: '2026-06-12', order: inOrder };

/**
 * Two processes on one table, each with its own caches (createAppContext), and an org whose GCP
 * plans the first one has read (so it caches their content). The second never deletes plans, as
 * when the delete after publishing fails: superseded plans are still stored.
 */
async function orgReadByOneProcess() {
  const first = createAppContext(table);
  const secondCtx = createAppContext(table);
  const second: AppContext = {
    ...secondCtx,
    repos: {
      ...secondCtx.repos,
      computedPlans: { ...secondCtx.repos.computedPlans, deletePlan: async () => false },
    },
  };
  const org = await createOrg(first, `Superseded ${first.ids.uuid()}`, null);
  const principal: Principal = { kind: 'partner', orgId: org.id, scopes: ['*'] };
  await importUsage(second, { orgId: org.id, records: juneUsage(2) });
  const plans = await listDefaultPlans(first, principal, org.id, 'gcp');
  const planId = plans[0]?.id as string;
  await listPlanLineItems(first, principal, org.id, planId, { order: inOrder });
  await listPlanResourceMatches(first, principal, org.id, planId, wholeJune);
  return { first, second, orgId: org.id, principal, planId };
}

describe('superseded plans', () => {
  it('answer 404 at once in a process that cached them, in one that did not, over any days', async () => {
    // Prepare
    const { first, second, orgId, principal, planId } = await orgReadByOneProcess();
    const third = createAppContext(table);

    // Act: the second process imports new usage and publishes newer plans.
    await importUsage(second, { orgId, records: juneUsage(3) });
    const answers = await Promise.allSettled([
      listPlanLineItems(first, principal, orgId, planId, { order: inOrder }),
      listPlanResourceMatches(first, principal, orgId, planId, wholeJune),
      listPlanResourceMatches(first, principal, orgId, planId, partOfJune),
      listPlanLineItems(third, principal, orgId, planId, { order: inOrder }),
      listPlanResourceMatches(third, principal, orgId, planId, partOfJune),
    ]);

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe('rejected');
      expect((answer as PromiseRejectedResult).reason).toBeInstanceOf(NotFoundError);
    }
    const newer = await listDefaultPlans(first, principal, orgId, 'gcp');
    expect(newer.map((plan) => plan.id)).not.toContain(planId);
    expect(
      await listPlanLineItems(first, principal, orgId, newer[0]?.id as string, { order: inOrder }),
    ).not.toEqual([]);
  });

  it('stay served when pinned (applied): only plans nobody applied are superseded', async () => {
    // Prepare: the plan was applied (its status moved past new) before newer plans came.
    const { first, second, orgId, principal, planId } = await orgReadByOneProcess();
    const before = await listPlanLineItems(first, principal, orgId, planId, { order: inOrder });
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: planKey(orgId, 'gcp', planId),
        UpdateExpression: 'SET #status = :scheduled',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':scheduled': 'scheduled' },
      }),
    );

    // Act
    await importUsage(second, { orgId, records: juneUsage(3) });
    const after = await listPlanLineItems(first, principal, orgId, planId, { order: inOrder });

    // Assess
    expect(after).toEqual(before);
  });
});

describe('resource matches over part of a lookback', () => {
  it('are computed from the plan’s own inputs, never from usage an import wrote since', async () => {
    // Prepare: the plan is still the published one while an import rewrites its usage.
    const { first, second, orgId, principal, planId } = await orgReadByOneProcess();
    const own = await listPlanResourceMatches(first, principal, orgId, planId, partOfJune);
    const session = await openImport(second, orgId, 'gcp');
    const hourOf = (iso: string) => Date.parse(iso) / 3_600_000;
    await second.repos.usage.replaceCoveredHours(
      orgId,
      {
        provider: 'gcp',
        covered: { firstHour: hourOf('2026-06-01T00:00:00Z'), lastHour: hourOf('2026-06-30T23:00:00Z') },
        rows: 0,
        series: [],
      },
      session.usageVersion,
    );

    // Act
    const during = listPlanResourceMatches(first, principal, orgId, planId, partOfJune);
    const whole = await listPlanResourceMatches(first, principal, orgId, planId, wholeJune);

    // Assess: over part of June the plan's own inputs are gone (409); over all of it its stored matches stand.
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((match) => match.before_ondemand_cost > 0)).toBe(true);
    await expect(during).rejects.toBeInstanceOf(ConflictError);
    expect(whole.length).toBe(own.length);
  });
});
