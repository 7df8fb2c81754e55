import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import {
  deduplicationId,
  messageGroupId,
  type PurchaseQueue,
  type PurchaseQueueConsumer,
  purchaseMessageBody,
} from '../../shared/queue/purchase-queue';
import { FifoQueueModel, type FifoQueueOptions, type QueuedMessage } from './fifo-queue-model';

/** Time for the runner: the system's by default, a test clock in tests. */
export interface QueueTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemTimers: QueueTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A retry waiting for its visibility timeout must not keep a finished process alive.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface LocalPurchaseQueueOptions extends Partial<FifoQueueOptions> {
  /** Called as Lambda's SQS event source calls the processor. */
  readonly consumer: PurchaseQueueConsumer;
  /** Batches delivered at once (Lambda's concurrency); a group is still in one batch at a time. */
  readonly concurrency?: number;
  readonly timers?: QueueTimers;
  /**
   * Told when the consumer throws (the whole batch is then retried, as on Lambda); by default
   * logged as an error, as Lambda would, so a crashing processor is never silent.
   */
  readonly onConsumerError?: (error: unknown, records: readonly SQSRecord[]) => void;
}

export interface LocalPurchaseQueue extends PurchaseQueue {
  /** Delivers every batch deliverable now and waits for the consumer to answer them all. */
  drain(): Promise<void>;
  /** Resolves when the queue holds nothing (every message deleted or dead-lettered). */
  idle(): Promise<void>;
  deadLetters(): readonly Readonly<QueuedMessage>[];
  /** Moves dead letters back to the queue (all, or the given message ids); answers how many. */
  redrive(messageIds?: readonly string[]): number;
  /** Stops delivering, waits for the batches being handled; sends after this reject. */
  close(): Promise<void>;
}

export class PurchaseQueueClosedError extends Error {
  override readonly name = 'PurchaseQueueClosedError';
  constructor() {
    super('The local purchase queue is closed');
  }
}

/** The in-process purchase queue of the local runtime: a FifoQueueModel driven by timers. */
export function createLocalPurchaseQueue(options: LocalPurchaseQueueOptions): LocalPurchaseQueue {
  const timers = options.timers ?? systemTimers;
  const onConsumerError =
    options.onConsumerError ??
    ((error: unknown, records: readonly SQSRecord[]) =>
      new Logger().error('purchase queue consumer failed', {
        messageIds: records.map((r) => r.messageId),
        error: error instanceof Error ? error : String(error),
      }));
  const concurrency = options.concurrency ?? 2;
  const model = new FifoQueueModel(() => timers.now(), options);
  const handling = new Set<Promise<void>>();
  let waiters: Array<() => void> = [];
  let idleWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  let timer: { handle: unknown; at: number } | null = null;
  let closed = false;

  function notify(): void {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
    if (model.depth === 0 && handling.size === 0) {
      const done = idleWaiters;
      idleWaiters = [];
      for (const { resolve } of done) resolve();
    }
  }

  async function handle(records: SQSRecord[]): Promise<void> {
    let response: SQSBatchResponse | undefined;
    try {
      response = await options.consumer({ Records: records });
    } catch (error) {
      onConsumerError(error, records);
    }
    model.settle(records, response);
  }

  function pump(): void {
    if (closed) return;
    while (handling.size < concurrency) {
      const records = model.receive();
      if (records.length === 0) break;
      const running: Promise<void> = handle(records).finally(() => {
        handling.delete(running);
        pump();
        notify();
      });
      handling.add(running);
    }
    wakeAtNextVisibility();
    notify();
  }

  function wakeAtNextVisibility(): void {
    const at = model.nextVisibleAt();
    if (timer && timer.at === at) return;
    if (timer) timers.clearTimeout(timer.handle);
    timer = null;
    if (at === null || closed) return;
    const wake = () => {
      timer = null;
      pump();
    };
    timer = { at, handle: timers.setTimeout(wake, Math.max(0, at - timers.now())) };
  }

  return {
    async send(messages) {
      if (closed) throw new PurchaseQueueClosedError();
      model.send(
        messages.map((message) => ({
          groupId: messageGroupId(message),
          deduplicationId: deduplicationId(message),
          body: purchaseMessageBody(message),
        })),
      );
      // Delivery starts after the sender resumes, as with a real queue.
      queueMicrotask(pump);
    },
    async drain() {
      for (;;) {
        pump();
        if (handling.size === 0) return;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    idle() {
      if (closed) return Promise.reject(new PurchaseQueueClosedError());
      return new Promise<void>((resolve, reject) => {
        idleWaiters.push({ resolve, reject });
        notify();
      });
    },
    deadLetters: () => model.deadLetters(),
    redrive(messageIds) {
      const moved = model.redrive(messageIds);
      queueMicrotask(pump);
      return moved;
    },
    async close() {
      closed = true;
      if (timer) timers.clearTimeout(timer.handle);
      timer = null;
      await Promise.all(handling);
      const waiting = idleWaiters;
      idleWaiters = [];
      for (const { reject } of waiting) reject(new PurchaseQueueClosedError());
    },
  };
}
