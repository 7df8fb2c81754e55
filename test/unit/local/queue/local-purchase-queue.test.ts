import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLocalPurchaseQueue,
  type LocalPurchaseQueue,
  type LocalPurchaseQueueOptions,
  PurchaseQueueClosedError,
  type QueueTimers,
} from '../../../../local/queue/local-purchase-queue';
import { type PurchaseMessage, parsePurchaseMessage } from '../../../../shared/queue/purchase-queue';

/** Timers on a test clock: due callbacks run when the test advances it. */
function manualTimers() {
  let now = 0;
  let pending: Array<{ at: number; callback: () => void; id: number }> = [];
  let nextId = 1;
  const timers: QueueTimers = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId++;
      pending.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout: (id) => {
      pending = pending.filter((t) => t.id !== id);
    },
  };
  return {
    timers,
    pendingCount: () => pending.length,
    advance(ms: number) {
      now += ms;
      const due = pending.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
      pending = pending.filter((t) => t.at > now);
      for (const t of due) t.callback();
    },
  };
}

const line = (orgId: string, lineItemId: string): PurchaseMessage => ({
  orgId,
  planId: 'plan-1',
  lineItemId,
});

/** A consumer that records every delivery and answers with `decide` (all succeed by default). */
function recordingConsumer(
  decide: (event: SQSEvent, call: number) => SQSBatchResponse = () => ({
    batchItemFailures: [],
  }),
) {
  const deliveries: string[][] = [];
  const consumer = async (event: SQSEvent) => {
    deliveries.push(event.Records.map((r) => parsePurchaseMessage(r.body).lineItemId));
    return decide(event, deliveries.length);
  };
  return { consumer, deliveries };
}

const opened: LocalPurchaseQueue[] = [];
function open(options: LocalPurchaseQueueOptions): LocalPurchaseQueue {
  const queue = createLocalPurchaseQueue(options);
  opened.push(queue);
  return queue;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((queue) => queue.close()));
});

describe('local purchase queue', () => {
  it('delivers what is sent to the consumer as an SQS event and is idle once all are deleted', async () => {
    // Prepare
    const { consumer, deliveries } = recordingConsumer();
    const queue = open({ consumer, timers: manualTimers().timers });

    // Act
    await queue.send([line('org-1', 'a'), line('org-2', 'b'), line('org-1', 'c')]);
    await queue.idle();

    // Assess
    expect(deliveries).toEqual([['a', 'b', 'c']]);
  });

  it('retries a reported failure after the visibility timeout, on the clock it is given', async () => {
    // Prepare
    const clock = manualTimers();
    const { consumer, deliveries } = recordingConsumer((event, call) => ({
      batchItemFailures: call === 1 ? [{ itemIdentifier: event.Records[0]?.messageId ?? '' }] : [],
    }));
    const queue = open({ consumer, timers: clock.timers, visibilityTimeoutMs: 1_000 });
    await queue.send([line('org-1', 'a')]);
    await queue.drain();

    // Act / Assess: nothing before the timeout, the retry at it
    clock.advance(999);
    await queue.drain();
    expect(deliveries).toEqual([['a']]);
    clock.advance(1);
    await queue.drain();
    expect(deliveries).toEqual([['a'], ['a']]);
    await queue.idle();
  });

  it('dead-letters a message its consumer fails five times, then is idle; a redrive delivers it again', async () => {
    // Prepare
    const clock = manualTimers();
    let healthy = false;
    const { consumer, deliveries } = recordingConsumer((event) => ({
      batchItemFailures: healthy ? [] : event.Records.map((r) => ({ itemIdentifier: r.messageId })),
    }));
    const queue = open({ consumer, timers: clock.timers, visibilityTimeoutMs: 1_000 });
    await queue.send([line('org-1', 'a')]);

    // Act
    for (let i = 0; i < 6; i++) {
      await queue.drain();
      clock.advance(1_000);
    }
    await queue.idle();

    // Assess
    expect(deliveries).toHaveLength(5);
    expect(queue.deadLetters().map((m) => m.deduplicationId)).toEqual(['plan-1:a']);

    // Act: the consumer is fixed, the operator re-drives
    healthy = true;
    expect(queue.redrive()).toBe(1);
    await queue.drain();

    // Assess
    expect(deliveries).toHaveLength(6);
    expect(queue.deadLetters()).toEqual([]);
    await queue.idle();
  });

  it('retries the whole batch when the consumer throws, and reports the error', async () => {
    // Prepare
    const clock = manualTimers();
    const errors: string[] = [];
    const { consumer, deliveries } = recordingConsumer((_, call) => {
      if (call === 1) throw new Error('processor crashed');
      return { batchItemFailures: [] };
    });
    const queue = open({
      consumer,
      timers: clock.timers,
      visibilityTimeoutMs: 1_000,
      onConsumerError: (error, records) => errors.push(`${(error as Error).message} (${records.length})`),
    });

    // Act
    await queue.send([line('org-1', 'a'), line('org-2', 'b')]);
    await queue.drain();
    clock.advance(1_000);
    await queue.drain();

    // Assess
    expect(errors).toEqual(['processor crashed (2)']);
    expect(deliveries).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    await queue.idle();
  });

  it('handles different groups in parallel batches, never one group in two', async () => {
    // Prepare: batches of one, two at a time; the consumer holds each batch until released
    const releases: Array<() => void> = [];
    const inFlight: string[] = [];
    const seenTogether: string[][] = [];
    const consumer = async (event: SQSEvent) => {
      const ids = event.Records.map((r) => {
        const m = parsePurchaseMessage(r.body);
        return `${m.orgId}/${m.lineItemId}`;
      });
      inFlight.push(...ids);
      seenTogether.push([...inFlight]);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight.splice(0, inFlight.length, ...inFlight.filter((id) => !ids.includes(id)));
      return { batchItemFailures: [] };
    };
    const queue = open({ consumer, timers: manualTimers().timers, batchSize: 1, concurrency: 2 });
    await queue.send([line('org-1', 'a'), line('org-1', 'b'), line('org-2', 'c')]);

    // Act: release batches one by one as they arrive
    const drained = queue.drain();
    while (seenTogether.length < 3 || releases.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    await drained;

    // Assess: org-1/b only ran after org-1/a finished
    expect(seenTogether[0]).toEqual(['org-1/a']);
    expect(seenTogether[1]).toEqual(['org-1/a', 'org-2/c']);
    expect(seenTogether[2]).not.toContain('org-1/a');
    expect(seenTogether[2]).toContain('org-1/b');
  });

  it('closes cleanly: waits for the batch being handled, leaves no timer, refuses later sends', async () => {
    // Prepare
    const clock = manualTimers();
    let release = () => {};
    let finished = false;
    const consumer = async (event: SQSEvent) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      finished = true;
      return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
    };
    const queue = createLocalPurchaseQueue({ consumer, timers: clock.timers });
    await queue.send([line('org-1', 'a')]);
    const draining = queue.drain();
    await new Promise((resolve) => setImmediate(resolve));

    // Act
    const closing = queue.close();
    release();
    await closing;
    await draining;

    // Assess
    expect(finished).toBe(true);
    expect(clock.pendingCount()).toBe(0);
    await expect(queue.send([line('org-1', 'b')])).rejects.toBeInstanceOf(PurchaseQueueClosedError);
  });

  it('retries on real timers too (the local runtime’s clock)', async () => {
    // Prepare
    const { consumer, deliveries } = recordingConsumer((event, call) => ({
      batchItemFailures: call === 1 ? event.Records.map((r) => ({ itemIdentifier: r.messageId })) : [],
    }));
    const queue = open({ consumer, visibilityTimeoutMs: 20 });

    // Act
    await queue.send([line('org-1', 'a')]);
    await queue.idle();

    // Assess
    expect(deliveries).toEqual([['a'], ['a']]);
  });
});
