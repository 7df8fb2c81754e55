import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPlanComputationHandler } from '../../../functions/plan-computation/plan-computation-handler';
import { listDefaultPlans, type PlanServingContext } from '../../../shared/app/commitment-plans';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import {
  lambdaPlanComputation,
  PlanComputationFailed,
} from '../../../shared/runtime/lambda-plan-computation';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { invokeAnsweredBy } from '../../support/lambda-invoke';
import { alwaysOn, fleet, gcpN2Standard8 as gcp, recordsOf, usageLines } from '../../support/usage-files';

/**
 * Plans computed in the plan-computation function, as the serving functions get them on AWS: the
 * Lambda client's Invoke is answered by the real handler (its result serialized as Lambda does),
 * which computes and stores the plans in dynalite through the installed context.
 */

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;
const lambda = mockClient(LambdaClient);
const lambdaContext = { awsRequestId: 'req-1', functionName: 'plan-computation' } as Context;
const env = { PLAN_COMPUTATION_FUNCTION: 'plan-computation', AWS_REGION: 'eu-west-1' };
/** The plan-computation function's handler on the test's table. */
const handler = createPlanComputationHandler(() => ctx);

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterEach(() => {
  lambda.reset();
});

afterAll(async () => {
  lambda.restore();
  await table.close();
});

/** Answers Invoke with the real handler, as Lambda does. */
function invokeTheHandler(): void {
  invokeAnsweredBy(lambda, handler, lambdaContext);
}

/** An org with a month of GCP usage, whose plans were computed at import and made stale since. */
async function orgWithUsage(): Promise<{ orgId: string; principal: Principal }> {
  const org = await createOrg(ctx, `Remote ${randomIds.uuid()}`, null);
  const records = recordsOf(
    usageLines('2026-06-01T00:00:00Z', 720, fleet(2, 'always', { ...gcp, unitsAt: alwaysOn })),
  );
  await importUsage(ctx, { orgId: org.id, records });
  await ctx.repos.usage.raisePlanInputsVersion(org.id, 'gcp', new Date().toISOString());
  return { orgId: org.id, principal: { kind: 'partner', orgId: org.id, scopes: ['*'] } };
}

/** The serving functions' context on AWS: their repositories, and the computation by Invoke. */
function servingOnAws(): PlanServingContext {
  return {
    repos: ctx.repos,
    clock: systemClock,
    ids: randomIds,
    planComputation: lambdaPlanComputation(env),
  };
}

describe('plans computed by the plan-computation function', () => {
  it('serves a stale read the plans the function computed, invoking it once with the org and provider', async () => {
    // Prepare
    invokeTheHandler();
    const { orgId, principal } = await orgWithUsage();
    const stale = await ctx.repos.plans.planSet(orgId, 'gcp');

    // Act
    const served = await listDefaultPlans(servingOnAws(), principal, orgId, 'gcp');

    // Assess
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input.FunctionName).toBe('plan-computation');
    expect(JSON.parse(new TextDecoder().decode(calls[0]?.args[0].input.Payload as Uint8Array))).toEqual({
      orgId,
      provider: 'gcp',
    });
    const planSet = await ctx.repos.plans.planSet(orgId, 'gcp');
    expect(planSet?.computed?.planIds).not.toEqual(stale?.computed?.planIds);
    expect(served.map((plan) => plan.id)).toEqual(planSet?.computed?.planIds);
    expect(served.every((plan) => !plan.is_calculating)).toBe(true);
  });

  it('does not invoke it while the stored plans are current', async () => {
    // Prepare
    invokeTheHandler();
    const { orgId, principal } = await orgWithUsage();
    await listDefaultPlans(servingOnAws(), principal, orgId, 'gcp');
    lambda.resetHistory();

    // Act
    const served = await listDefaultPlans(servingOnAws(), principal, orgId, 'gcp');

    // Assess
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(served).toHaveLength(3);
  });

  it('fails the read, naming the org, when the function fails, and stores nothing', async () => {
    // Prepare
    lambda.on(InvokeCommand).callsFake(async () => ({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: new TextEncoder().encode(JSON.stringify({ errorType: 'Error', errorMessage: 'out of time' })),
    }));
    const { orgId, principal } = await orgWithUsage();
    const before = await ctx.repos.plans.planSet(orgId, 'gcp');

    // Act
    const read = listDefaultPlans(servingOnAws(), principal, orgId, 'gcp');

    // Assess
    await expect(read).rejects.toThrow(PlanComputationFailed);
    await expect(read).rejects.toThrow(`The plan computation of ${orgId} (gcp) failed`);
    expect(await ctx.repos.plans.planSet(orgId, 'gcp')).toEqual(before);
  });

  it('refuses an event without a known provider, naming the field', async () => {
    await expect(handler({ orgId: 'org-1', provider: 'kubernetes' }, lambdaContext)).rejects.toThrow(
      'A plan computation request needs provider, one of aws, azure, gcp',
    );
    await expect(handler({ provider: 'aws' }, lambdaContext)).rejects.toThrow(
      'A plan computation request needs orgId, a non-empty string',
    );
  });
});
