import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  FifoQueueModel,
  type FifoQueueOptions,
  failedRecords,
} from '../../../../local/queue/fifo-queue-model';

/** A queue on a test clock that only moves when told to. */
function queueAt(options: Partial<FifoQueueOptions> = {}) {
  let now = 1_000_000;
  const queue = new FifoQueueModel(() => now, { visibilityTimeoutMs: 30_000, ...options });
  return {
    queue,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

const entry = (groupId: string, deduplicationId: string, body = deduplicationId) => ({
  groupId,
  deduplicationId,
  body,
});
const bodies = (records: readonly SQSRecord[]) => records.map((r) => r.body);
const ok = { batchItemFailures: [] };
const failing = (...records: SQSRecord[]) => ({
  batchItemFailures: records.map((r) => ({ itemIdentifier: r.messageId })),
});

describe('FIFO queue model', () => {
  describe('deduplication', () => {
    it('drops a message whose deduplication id was sent within the last five minutes', () => {
      // Prepare
      const { queue, advance } = queueAt();
      const [first] = queue.send([entry('org-1', 'plan-1:a', 'first')]);

      // Act
      advance(5 * 60_000 - 1);
      const [again] = queue.send([entry('org-1', 'plan-1:a', 'second')]);

      // Assess: accepted, same message id, one message queued
      expect(again).toEqual({ messageId: first?.messageId, duplicate: true });
      expect(bodies(queue.receive())).toEqual(['first']);
    });

    it('drops a duplicate even after the first was delivered and deleted, inside the window', () => {
      // Prepare
      const { queue, advance } = queueAt();
      queue.send([entry('org-1', 'plan-1:a')]);
      const [delivered] = queue.receive();
      queue.delete(delivered?.receiptHandle ?? '');

      // Act
      advance(60_000);
      queue.send([entry('org-1', 'plan-1:a')]);

      // Assess
      expect(queue.depth).toBe(0);
    });

    it('queues the same deduplication id again once the window has passed', () => {
      // Prepare
      const { queue, advance } = queueAt();
      queue.send([entry('org-1', 'plan-1:a', 'first')]);

      // Act: the window runs from the first send, not from the duplicate
      advance(4 * 60_000);
      queue.send([entry('org-1', 'plan-1:a', 'dropped')]);
      advance(60_000);
      const [later] = queue.send([entry('org-1', 'plan-1:a', 'later')]);

      // Assess
      expect(later?.duplicate).toBe(false);
      expect(queue.depth).toBe(2);
    });

    it('drops a duplicate within one send', () => {
      const { queue } = queueAt();

      const outcomes = queue.send([entry('org-1', 'p:a'), entry('org-1', 'p:a')]);

      expect(outcomes.map((o) => o.duplicate)).toEqual([false, true]);
      expect(queue.depth).toBe(1);
    });
  });

  describe('visibility timeout and at-least-once delivery', () => {
    it('delivers a received, undeleted message again once its visibility timeout has passed', () => {
      // Prepare
      const { queue, advance } = queueAt({ visibilityTimeoutMs: 30_000 });
      queue.send([entry('org-1', 'p:a')]);
      const [first] = queue.receive();

      // Act / Assess: hidden until the timeout, then back with a new receipt handle
      advance(29_999);
      expect(queue.receive()).toEqual([]);
      advance(1);
      const [second] = queue.receive();
      expect(second?.messageId).toBe(first?.messageId);
      expect(second?.receiptHandle).not.toBe(first?.receiptHandle);
      expect(second?.attributes.ApproximateReceiveCount).toBe('2');
    });

    it('ignores a delete with the receipt handle of an earlier delivery', () => {
      // Prepare: the first consumer was too slow, the message was delivered again
      const { queue, advance } = queueAt();
      queue.send([entry('org-1', 'p:a')]);
      const [stale] = queue.receive();
      advance(30_000);
      const [current] = queue.receive();

      // Act
      const deletedByStale = queue.delete(stale?.receiptHandle ?? '');

      // Assess
      expect(deletedByStale).toBe(false);
      expect(queue.depth).toBe(1);
      expect(queue.delete(current?.receiptHandle ?? '')).toBe(true);
      expect(queue.depth).toBe(0);
    });

    it('tells when the next in-flight message becomes visible', () => {
      const { queue, advance, now } = queueAt({ visibilityTimeoutMs: 10_000 });
      queue.send([entry('org-1', 'p:a')]);
      expect(queue.nextVisibleAt()).toBeNull();

      queue.receive();
      const expected = now() + 10_000;
      advance(4_000);

      expect(queue.nextVisibleAt()).toBe(expected);
    });
  });

  describe('retries and the dead-letter list', () => {
    it('dead-letters a message after five receives without a delete, and only then', () => {
      // Prepare
      const { queue, advance } = queueAt({ maxReceiveCount: 5, batchSize: 1 });
      queue.send([entry('org-1', 'p:a'), entry('org-1', 'p:b')]);

      // Act: p:a fails five times (p:b waits behind it in the group)
      const receiveCounts: string[] = [];
      for (let i = 0; i < 5; i++) {
        const batch = queue.receive();
        receiveCounts.push(batch[0]?.attributes.ApproximateReceiveCount ?? '-');
        queue.settle(batch, failing(...batch));
        advance(30_000);
      }
      const after = queue.receive();

      // Assess: the sixth receive moves p:a aside and delivers p:b
      expect(receiveCounts).toEqual(['1', '2', '3', '4', '5']);
      expect(queue.deadLetters().map((m) => m.deduplicationId)).toEqual(['p:a']);
      expect(queue.deadLetters()[0]?.receiveCount).toBe(5);
      expect(bodies(after)).toEqual(['p:b']);
      expect(after[0]?.attributes.ApproximateReceiveCount).toBe('1');
    });

    it('redrives dead letters with their receive counts reset', () => {
      // Prepare
      const { queue, advance } = queueAt({ maxReceiveCount: 1 });
      queue.send([entry('org-1', 'p:a')]);
      queue.receive();
      advance(30_000);
      queue.receive();
      expect(queue.deadLetters()).toHaveLength(1);

      // Act
      const moved = queue.redrive();

      // Assess
      expect(moved).toBe(1);
      expect(queue.deadLetters()).toEqual([]);
      const [again] = queue.receive();
      expect(again?.body).toBe('p:a');
      expect(again?.attributes.ApproximateReceiveCount).toBe('1');
    });
  });

  describe('FIFO per message group', () => {
    it('delivers no message of a group while an earlier one of the group is in flight', () => {
      // Prepare
      const { queue } = queueAt({ batchSize: 1 });
      queue.send([entry('org-1', 'p:1'), entry('org-1', 'p:2'), entry('org-2', 'q:1')]);

      // Act
      const first = queue.receive();
      const second = queue.receive();
      const third = queue.receive();

      // Assess: org-2 goes ahead, org-1's second message waits for its first
      expect(bodies(first)).toEqual(['p:1']);
      expect(bodies(second)).toEqual(['q:1']);
      expect(third).toEqual([]);
      queue.settle(first, ok);
      expect(bodies(queue.receive())).toEqual(['p:2']);
    });

    it('puts a group in one batch in send order, at most ten records, oldest first', () => {
      // Prepare
      const { queue } = queueAt();
      const sent = Array.from({ length: 12 }, (_, i) => entry(i % 2 === 0 ? 'org-a' : 'org-b', `m:${i}`));
      queue.send(sent);

      // Act
      const batch = queue.receive();

      // Assess
      expect(bodies(batch)).toEqual(sent.slice(0, 10).map((e) => e.body));
      expect(queue.receive()).toEqual([]);
    });

    it('redelivers a timed-out message before the later ones of its group', () => {
      // Prepare
      const { queue, advance } = queueAt({ batchSize: 1 });
      queue.send([entry('org-1', 'p:1'), entry('org-1', 'p:2')]);
      queue.receive();

      // Act
      advance(30_000);

      // Assess
      expect(bodies(queue.receive())).toEqual(['p:1']);
    });
  });

  describe('settling a batch as Lambda does with ReportBatchItemFailures', () => {
    it('deletes the records not reported and keeps the reported ones', () => {
      // Prepare
      const { queue, advance } = queueAt();
      queue.send([entry('org-1', 'p:1'), entry('org-2', 'q:1')]);
      const batch = queue.receive();

      // Act
      const kept = queue.settle(batch, failing(batch[1] as SQSRecord));

      // Assess
      expect(kept).toEqual([batch[1]?.messageId]);
      advance(30_000);
      expect(bodies(queue.receive())).toEqual(['q:1']);
    });

    it("keeps every later record of a failed record's group, not the other groups", () => {
      // Prepare
      const { queue } = queueAt();
      queue.send([
        entry('g', 'g:1'),
        entry('g', 'g:2'),
        entry('h', 'h:1'),
        entry('g', 'g:3'),
        entry('h', 'h:2'),
      ]);
      const batch = queue.receive();

      // Act: the consumer reports only g:2
      const kept = queue.settle(batch, failing(batch[1] as SQSRecord));

      // Assess
      const keptBodies = batch.filter((r) => kept.includes(r.messageId)).map((r) => r.body);
      expect(keptBodies).toEqual(['g:2', 'g:3']);
      expect(queue.depth).toBe(2);
    });

    it('keeps the whole batch when the consumer threw', () => {
      const { queue } = queueAt();
      queue.send([entry('g', 'g:1'), entry('h', 'h:1')]);
      const batch = queue.receive();

      expect(queue.settle(batch, undefined)).toHaveLength(2);
      expect(queue.depth).toBe(2);
    });

    it('keeps the whole batch when the answer names a record not in it', () => {
      const { queue } = queueAt();
      queue.send([entry('g', 'g:1'), entry('h', 'h:1')]);
      const batch = queue.receive();

      const kept = queue.settle(batch, { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] });

      expect(kept).toHaveLength(2);
    });

    it('finds the failed records from the group attribute alone', () => {
      // Prepare: hand-made records, as the SQS event source delivers them
      const record = (messageId: string, group: string) =>
        ({ messageId, attributes: { MessageGroupId: group } }) as SQSRecord;
      const batch = [
        record('1', 'a'),
        record('2', 'b'),
        record('3', 'a'),
        record('4', 'b'),
        record('5', 'a'),
      ];

      // Act
      const failed = failedRecords(batch, { batchItemFailures: [{ itemIdentifier: '3' }] });

      // Assess
      expect([...failed].sort()).toEqual(['3', '5']);
    });
  });

  it('shapes records as the SQS event source does', () => {
    const { queue, now } = queueAt();
    queue.send([entry('org-1', 'plan-1:a', '{"x":1}')]);

    const [record] = queue.receive();

    expect(record).toMatchObject({
      body: '{"x":1}',
      // md5 of '{"x":1}', worked out with `printf '{"x":1}' | md5sum`
      md5OfBody: 'ac3ef48caa08fa3ed5e025da69edc645',
      eventSource: 'aws:sqs',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(now()),
        ApproximateFirstReceiveTimestamp: String(now()),
        MessageGroupId: 'org-1',
        MessageDeduplicationId: 'plan-1:a',
      },
    });
  });
});
