import {
  BatchEntryIdsNotDistinct,
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  SQSClient,
  TooManyEntriesInBatchRequest,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import {
  type PurchaseMessage,
  PurchaseQueueSendError,
  parsePurchaseMessage,
} from '../../../shared/queue/purchase-queue';
import { sqsPurchaseQueue } from '../../../shared/queue/sqs-purchase-queue';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/purchases.fifo';

interface Failure {
  times: number;
  code: string;
  senderFault: boolean;
}

/**
 * A FIFO queue behind SendMessageBatch: it validates batches as SQS does, drops a deduplication id
 * seen within five minutes (on its own clock), keeps what it accepted, and fails the entries it is
 * told to (by deduplication id, a number of times).
 */
function fakeSqs() {
  let now = 0;
  const seen = new Map<string, number>();
  const queued: Array<{ group: string; dedup: string; body: string }> = [];
  const failures = new Map<string, Failure>();
  const batchSizes: number[] = [];
  const brokenCalls = new Set<number>();
  let calls = 0;
  const client = new SQSClient({ region: 'eu-west-1' });
  mockClient(client)
    .on(SendMessageBatchCommand)
    .callsFake(({ QueueUrl, Entries = [] }: SendMessageBatchCommandInput) => {
      calls += 1;
      if (brokenCalls.has(calls))
        throw Object.assign(new Error('connection reset'), { name: 'NetworkError' });
      if (QueueUrl !== QUEUE_URL) throw new Error(`no queue ${QueueUrl}`);
      if (Entries.length > 10)
        throw new TooManyEntriesInBatchRequest({ message: 'at most 10 entries', $metadata: {} });
      if (new Set(Entries.map((e) => e.Id)).size !== Entries.length)
        throw new BatchEntryIdsNotDistinct({ message: 'ids not distinct', $metadata: {} });
      batchSizes.push(Entries.length);
      const Successful = [];
      const Failed = [];
      for (const entry of Entries) {
        const dedup = entry.MessageDeduplicationId ?? '';
        const failure = failures.get(dedup);
        if (!entry.MessageGroupId || !dedup) {
          Failed.push({ Id: entry.Id, Code: 'MissingParameter', SenderFault: true, Message: 'FIFO ids' });
        } else if (failure && failure.times > 0) {
          failure.times -= 1;
          Failed.push({
            Id: entry.Id,
            Code: failure.code,
            SenderFault: failure.senderFault,
            Message: 'told to',
          });
        } else {
          const firstSent = seen.get(dedup);
          if (firstSent === undefined || now - firstSent >= 5 * 60_000) {
            seen.set(dedup, now);
            queued.push({ group: entry.MessageGroupId, dedup, body: entry.MessageBody ?? '' });
          }
          Successful.push({ Id: entry.Id, MessageId: `m-${queued.length}`, MD5OfMessageBody: '' });
        }
      }
      return { Successful, Failed };
    });
  return {
    client,
    queued,
    batchSizes,
    breakCall: (call: number) => brokenCalls.add(call),
    fail: (dedup: string, failure: Failure) => failures.set(dedup, failure),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const lines = (count: number, orgId = 'org-1', planId = 'plan-1'): PurchaseMessage[] =>
  Array.from({ length: count }, (_, i) => ({ orgId, planId, lineItemId: `line-${i + 1}` }));

const noPause = async () => {};

describe('SQS purchase queue', () => {
  it('sends in batches of ten, grouped by org, deduplicated by plan and line item', async () => {
    // Prepare
    const sqs = fakeSqs();
    const queue = sqsPurchaseQueue({ client: sqs.client, queueUrl: QUEUE_URL });
    const messages = [...lines(20), ...lines(5, 'org-2', 'plan-9')];

    // Act
    await queue.send(messages);

    // Assess
    expect(sqs.batchSizes).toEqual([10, 10, 5]);
    expect(sqs.queued).toHaveLength(25);
    expect(sqs.queued[0]).toMatchObject({ group: 'org-1', dedup: 'plan-1:line-1' });
    expect(sqs.queued[24]).toMatchObject({ group: 'org-2', dedup: 'plan-9:line-5' });
    expect(sqs.queued.map((q) => parsePurchaseMessage(q.body))).toEqual(messages);
  });

  it('sends nothing for no messages', async () => {
    const sqs = fakeSqs();

    await sqsPurchaseQueue({ client: sqs.client, queueUrl: QUEUE_URL }).send([]);

    expect(sqs.batchSizes).toEqual([]);
  });

  it('lets the queue drop a re-send of the same line items within five minutes', async () => {
    // Prepare
    const sqs = fakeSqs();
    const queue = sqsPurchaseQueue({ client: sqs.client, queueUrl: QUEUE_URL });
    await queue.send(lines(3));

    // Act
    sqs.advance(4 * 60_000);
    await queue.send(lines(3));

    // Assess
    expect(sqs.queued).toHaveLength(3);
  });

  it('retries the entries SQS failed, and only those, until they are accepted', async () => {
    // Prepare
    const sqs = fakeSqs();
    sqs.fail('plan-1:line-4', { times: 2, code: 'InternalError', senderFault: false });
    const pauses: number[] = [];
    const queue = sqsPurchaseQueue({
      client: sqs.client,
      queueUrl: QUEUE_URL,
      pause: async (attempt) => {
        pauses.push(attempt);
      },
    });

    // Act
    await queue.send(lines(12));

    // Assess: first batch of 10, then the failed entry twice alone, then the last 2
    expect(sqs.batchSizes).toEqual([10, 1, 1, 2]);
    expect(pauses).toEqual([1, 2]);
    expect(sqs.queued.map((q) => q.dedup).sort()).toEqual(
      lines(12)
        .map((m) => `plan-1:${m.lineItemId}`)
        .sort(),
    );
  });

  it('names the messages still failing after the last attempt, having sent the others', async () => {
    // Prepare
    const sqs = fakeSqs();
    sqs.fail('plan-1:line-2', { times: 99, code: 'InternalError', senderFault: false });
    sqs.fail('plan-1:line-13', { times: 99, code: 'ServiceUnavailable', senderFault: false });
    const queue = sqsPurchaseQueue({
      client: sqs.client,
      queueUrl: QUEUE_URL,
      maxAttempts: 3,
      pause: noPause,
    });

    // Act
    const error = await queue.send(lines(15)).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(PurchaseQueueSendError);
    const unsent = (error as PurchaseQueueSendError).unsent;
    expect(unsent.map((u) => [u.message.lineItemId, u.code])).toEqual([
      ['line-2', 'InternalError'],
      ['line-13', 'ServiceUnavailable'],
    ]);
    expect((error as Error).message).toContain('plan-1:line-2 (InternalError)');
    expect(sqs.batchSizes).toEqual([10, 1, 1, 5, 1, 1]);
    expect(sqs.queued).toHaveLength(13);
  });

  it('does not retry an entry failed by the sender’s fault', async () => {
    // Prepare
    const sqs = fakeSqs();
    sqs.fail('plan-1:line-1', { times: 1, code: 'InvalidParameterValue', senderFault: true });
    const queue = sqsPurchaseQueue({ client: sqs.client, queueUrl: QUEUE_URL, pause: noPause });

    // Act
    const error = await queue.send(lines(2)).catch((e: unknown) => e);

    // Assess: one call only; the fault would repeat
    expect(sqs.batchSizes).toEqual([2]);
    expect((error as PurchaseQueueSendError).unsent.map((u) => u.code)).toEqual(['InvalidParameterValue']);
  });

  it('names every message of a batch whose call failed, and still sends the other batches', async () => {
    // Prepare: the second call fails as a whole (after the client's own retries)
    const sqs = fakeSqs();
    sqs.breakCall(2);
    const queue = sqsPurchaseQueue({ client: sqs.client, queueUrl: QUEUE_URL, pause: noPause });

    // Act
    const error = await queue.send(lines(25)).catch((e: unknown) => e);

    // Assess
    const unsent = (error as PurchaseQueueSendError).unsent;
    expect(unsent.map((u) => u.message.lineItemId)).toEqual(
      lines(20)
        .slice(10)
        .map((m) => m.lineItemId),
    );
    expect(unsent[0]).toMatchObject({ code: 'NetworkError', reason: 'connection reset' });
    expect(sqs.queued).toHaveLength(15);
  });
});

describe('purchase message body', () => {
  it('names the missing or bad fields of a body that is not a purchase message', () => {
    expect(() => parsePurchaseMessage('{"orgId":"o","planId":""}')).toThrow(
      'Not a purchase message: bad or missing planId, lineItemId',
    );
    expect(() => parsePurchaseMessage('nope')).toThrow('the body is not JSON');
  });
});
