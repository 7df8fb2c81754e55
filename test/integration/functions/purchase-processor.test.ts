import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPurchaseProcessorHandler } from '../../../functions/purchase-processor/purchase-processor-handler';
import { bundledCatalog } from '../../../shared/app/bundled-catalog';
import { applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import {
  type Marketplace,
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
} from '../../../shared/cloud/marketplace/marketplace';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { type PurchaseMessage, purchaseMessageBody } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

/**
 * The processor's Lambda handler as the SQS event source calls it (FIFO, ReportBatchItemFailures,
 * Powertools batch): which records it reports as failed, for SQS to deliver again, and which it
 * lets go.
 */

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const lambdaContext = { awsRequestId: 'req-1', functionName: 'purchase-processor' } as Context;

function sqsRecord(messageId: string, body: string, group: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
      MessageGroupId: group,
      MessageDeduplicationId: messageId,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:purchases.fifo',
    awsRegion: 'eu-west-1',
  };
}

/** Applies a fresh org's recommended plan; answers the messages apply sent. */
async function appliedPlan(): Promise<{ orgId: string; planId: string; messages: PurchaseMessage[] }> {
  const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
  const messages: PurchaseMessage[] = [];
  const purchaseQueue = { send: async (sent: readonly PurchaseMessage[]) => void messages.push(...sent) };
  await applyPlan({ ...ctx, purchaseQueue, catalog: bundledCatalog }, user, orgId, planId);
  return { orgId, planId, messages };
}

describe('the purchase processor handler', () => {
  it("reports the purchases whose provider did not answer, and the rest of that org's group, and lets the others go", async () => {
    // Prepare: org A's provider does not answer; org B's buys; one message is not a purchase.
    const a = await appliedPlan();
    const b = await appliedPlan();
    const simulated = new SimulatedMarketplace();
    const silentForA: Marketplace = {
      purchase: (request: PurchaseRequest) =>
        request.orgId === a.orgId
          ? Promise.reject(new PurchaseOutcomeUnknown('timeout'))
          : simulated.purchase(request),
    };
    const handler = createPurchaseProcessorHandler(() => ({
      ...ctx,
      marketplace: silentForA,
      catalog: bundledCatalog,
    }));
    const [firstOfA] = a.messages;
    const [firstOfB] = b.messages;
    if (!firstOfA || !firstOfB) throw new Error('each plan buys at least one line');
    const event: SQSEvent = {
      Records: [
        sqsRecord('bad', 'not json', 'org-x'),
        sqsRecord('a1', purchaseMessageBody(firstOfA), a.orgId),
        sqsRecord('b1', purchaseMessageBody(firstOfB), b.orgId),
        // The same purchase delivered again, later in org A's group.
        sqsRecord('a1-again', purchaseMessageBody(firstOfA), a.orgId),
      ],
    };

    // Act
    const response = await handler(event, lambdaContext);

    // Assess: a1 did not finish and its copy waits behind it (FIFO order within org A's group,
    // never attempted: one attempt in all); the malformed message is dropped (it would fail the
    // same way every time); b1 is bought.
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'a1' }, { itemIdentifier: 'a1-again' }]);
    const a1 = await table.store.purchases.get(firstOfA.planId, firstOfA.lineItemId);
    expect(a1).toMatchObject({ status: 'purchasing', attempts: 1 });
    expect((await table.store.purchases.get(firstOfB.planId, firstOfB.lineItemId))?.status).toBe('completed');
  });
});
