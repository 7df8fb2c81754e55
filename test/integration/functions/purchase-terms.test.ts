import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPlanComputationHandler } from '../../../functions/plan-computation/plan-computation-handler';
import { type ApplyContext, applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { purchasingCatalog } from '../../../shared/app/stored-catalog';
import { purchaseClientToken } from '../../../shared/cloud/marketplace/marketplace';
import { purchaseRecordsOf } from '../../../shared/domain/purchases/purchase-orders';
import { selectedLineItems } from '../../../shared/domain/purchases/purchase-record';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { lambdaPurchaseTerms, PurchaseTermsFailed } from '../../../shared/runtime/lambda-purchase-terms';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { invokeAnsweredBy } from '../../support/lambda-invoke';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

/**
 * Applying a plan as the plan-purchases function does on AWS (docs/purchases.md, Pricing the records): the
 * purchase records are priced with the terms the plan-computation function answers (the real
 * handler behind the Lambda client's Invoke, its answer serialized as Lambda does), on dynalite.
 */

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;
const lambda = mockClient(LambdaClient);
const lambdaContext = { awsRequestId: 'req-1', functionName: 'plan-computation' } as Context;
const env = { PLAN_COMPUTATION_FUNCTION: 'plan-computation', AWS_REGION: 'eu-west-1' };

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

/** The plan-purchases function's context on AWS: the catalog's terms by Invoke. */
function applyingOnAws(sent: PurchaseMessage[]): ApplyContext {
  return {
    ...ctx,
    purchaseQueue: { send: async (messages) => void sent.push(...messages) },
    catalog: lambdaPurchaseTerms(env),
  };
}

describe('applying a plan with the terms of the plan-computation function', () => {
  it('writes the records the stored catalog prices, asking the function once for the offers bought', async () => {
    // Prepare
    invokeAnsweredBy(
      lambda,
      createPlanComputationHandler(() => ctx),
      lambdaContext,
    );
    const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
    const content = await ctx.repos.plans.planContent(orgId, planId);
    if (!content) throw new Error('the recommended plan has no content');
    const sent: PurchaseMessage[] = [];

    // Act
    await applyPlan(applyingOnAws(sent), user, orgId, planId);

    // Assess: the oracle is the records the catalog itself prices, at the time they were written.
    const written = await ctx.repos.purchases.listByPlan(planId);
    const lines = selectedLineItems(content.lineItems);
    const catalog = await purchasingCatalog(ctx.repos.catalog)(
      lines.map((line) => ({ provider: content.provider, region: line.offer.region })),
    );
    const expected = purchaseRecordsOf(content, catalog, purchaseClientToken, written[0]?.createdAt ?? '');
    expect(written.length).toBeGreaterThan(0);
    expect(written).toEqual(expect.arrayContaining(expected));
    expect(written).toHaveLength(expected.length);
    expect(sent).toHaveLength(written.length);
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(JSON.parse(new TextDecoder().decode(calls[0]?.args[0].input.Payload as Uint8Array))).toEqual({
      kind: 'purchase_terms',
      provider: content.provider,
      offers: lines.map((line) => ({ offerId: line.offer_id, region: line.offer.region })),
    });
  });

  it('fails the apply when the function fails, writing nothing', async () => {
    // Prepare
    lambda.on(InvokeCommand).callsFake(async () => ({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: new TextEncoder().encode(JSON.stringify({ errorType: 'Error', errorMessage: 'out of time' })),
    }));
    const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
    const sent: PurchaseMessage[] = [];

    // Act
    const applying = applyPlan(applyingOnAws(sent), user, orgId, planId);

    // Assess
    await expect(applying).rejects.toThrow(PurchaseTermsFailed);
    expect(await ctx.repos.purchases.listByPlan(planId)).toEqual([]);
    expect(
      await ctx.repos.plans.appliedComputation(
        orgId,
        'aws',
        (await ctx.repos.plans.planContent(orgId, planId))?.usageVersion ?? -1,
      ),
    ).toBeNull();
    expect(sent).toEqual([]);
  });

  it('refuses a terms request without offers, naming the field', async () => {
    // Prepare
    const handler = createPlanComputationHandler(() => ctx);

    // Act and Assess
    await expect(handler({ kind: 'purchase_terms', provider: 'aws' }, lambdaContext)).rejects.toThrow(
      'A purchase terms request needs offers, an array of { offerId, region } strings',
    );
  });
});
