import { createHash } from 'node:crypto';
import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';

/**
 * An SQS FIFO queue and its dead-letter queue as a pure state machine: time comes from the
 * injected clock (milliseconds), nothing runs by itself. The local runner drives it with timers;
 * tests drive it with a test clock, so no test sleeps.
 *
 * Semantics kept from SQS FIFO with a redrive policy and Lambda's event source mapping:
 * - deduplication: a message whose deduplication id was accepted within the window (5 minutes
 *   from that first send) is accepted and dropped;
 * - FIFO per group: while any message of a group is in flight, no other message of the group is
 *   delivered; a batch takes a group's messages from its head, in order;
 * - visibility timeout: a received message not deleted becomes visible again after it;
 * - a message received `maxReceiveCount` times and still not deleted goes to the dead-letter list
 *   instead of being delivered again.
 */
export interface FifoQueueOptions {
  readonly visibilityTimeoutMs: number;
  readonly maxReceiveCount: number;
  readonly deduplicationWindowMs: number;
  /** At most this many records per delivered batch (Lambda's batch size; 10 at most for FIFO). */
  readonly batchSize: number;
}

export const sqsFifoDefaults: FifoQueueOptions = {
  visibilityTimeoutMs: 30_000,
  maxReceiveCount: 5,
  deduplicationWindowMs: 5 * 60_000,
  batchSize: 10,
};

export interface QueueEntry {
  readonly groupId: string;
  readonly deduplicationId: string;
  readonly body: string;
}

export interface QueuedMessage extends QueueEntry {
  readonly messageId: string;
  readonly sequenceNumber: number;
  readonly sentAt: number;
  receiveCount: number;
  firstReceivedAt: number | null;
  /** The receipt handle of the current delivery; null while never received. */
  receiptHandle: string | null;
  /** In flight until this time; visible when null or past. */
  invisibleUntil: number | null;
}

export interface SendOutcome {
  readonly messageId: string;
  /** True when the deduplication id was seen within the window: nothing new was queued. */
  readonly duplicate: boolean;
}

const QUEUE_ARN = 'arn:aws:sqs:local:000000000000:purchases.fifo';

export class FifoQueueModel {
  readonly options: FifoQueueOptions;
  /** Messages not yet deleted nor dead-lettered, in send order. */
  private readonly messages: QueuedMessage[] = [];
  private readonly deadLetterList: QueuedMessage[] = [];
  /** Deduplication id -> (message id, end of its window). */
  private readonly seen = new Map<string, { messageId: string; until: number }>();
  private sequence = 0;
  private deliveries = 0;

  constructor(
    private readonly now: () => number,
    options: Partial<FifoQueueOptions> = {},
  ) {
    this.options = { ...sqsFifoDefaults, ...options };
    if (this.options.batchSize < 1 || this.options.batchSize > 10)
      throw new RangeError('batchSize must be 1 to 10 (an SQS FIFO event source limit)');
    if (this.options.maxReceiveCount < 1) throw new RangeError('maxReceiveCount must be at least 1');
  }

  send(entries: readonly QueueEntry[]): SendOutcome[] {
    const at = this.now();
    for (const [id, { until }] of this.seen) if (until <= at) this.seen.delete(id);
    return entries.map((entry) => {
      const earlier = this.seen.get(entry.deduplicationId);
      if (earlier) return { messageId: earlier.messageId, duplicate: true };
      this.sequence += 1;
      const messageId = `local-${this.sequence}`;
      this.seen.set(entry.deduplicationId, { messageId, until: at + this.options.deduplicationWindowMs });
      this.messages.push({
        ...entry,
        messageId,
        sequenceNumber: this.sequence,
        sentAt: at,
        receiveCount: 0,
        firstReceivedAt: null,
        receiptHandle: null,
        invisibleUntil: null,
      });
      return { messageId, duplicate: false };
    });
  }

  /**
   * Receives the next batch as Lambda's poller would: groups with nothing in flight, oldest head
   * first, each contributing its head messages in order. Messages past their last receive move to
   * the dead-letter list on the way. Empty when nothing is deliverable now.
   */
  receive(): SQSRecord[] {
    const at = this.now();
    this.deadLetterExhausted(at);
    const lockedGroups = new Set(this.messages.filter((m) => this.inFlight(m, at)).map((m) => m.groupId));
    const taken: QueuedMessage[] = [];
    // Messages are kept in send order, so walking them takes each unlocked group's messages from
    // its head, in order, and interleaves groups oldest first.
    for (const message of this.messages) {
      if (taken.length >= this.options.batchSize) break;
      if (!lockedGroups.has(message.groupId)) taken.push(message);
    }
    return taken.map((message) => this.deliver(message, at));
  }

  /** Deletes a delivered message; false when the handle is not its current one (a stale delivery). */
  delete(receiptHandle: string): boolean {
    const index = this.messages.findIndex((m) => m.receiptHandle === receiptHandle);
    if (index < 0) return false;
    this.messages.splice(index, 1);
    return true;
  }

  /**
   * Settles a delivered batch with the consumer's answer, as Lambda does with
   * ReportBatchItemFailures on a FIFO queue: records listed as failed, and every later record of
   * the same group in the batch, stay (visible again after the visibility timeout); the others are
   * deleted. A thrown handler (`response` undefined) or an answer naming a record not in the batch
   * fails the whole batch. Answers the message ids kept for a retry.
   */
  settle(records: readonly SQSRecord[], response: SQSBatchResponse | undefined): string[] {
    const kept = failedRecords(records, response);
    for (const record of records) if (!kept.has(record.messageId)) this.delete(record.receiptHandle);
    return records.filter((record) => kept.has(record.messageId)).map((record) => record.messageId);
  }

  /** The earliest time an in-flight message becomes visible again; null when none is in flight. */
  nextVisibleAt(): number | null {
    const at = this.now();
    let next: number | null = null;
    for (const m of this.messages) {
      if (m.invisibleUntil !== null && m.invisibleUntil > at && (next === null || m.invisibleUntil < next))
        next = m.invisibleUntil;
    }
    return next;
  }

  /** Messages neither deleted nor dead-lettered (visible or in flight). */
  get depth(): number {
    return this.messages.length;
  }

  deadLetters(): readonly Readonly<QueuedMessage>[] {
    return [...this.deadLetterList];
  }

  /**
   * Moves dead letters back to the queue (all, or the given message ids), with their receive
   * counts reset, as SQS's redrive does: they are queued behind the messages waiting now.
   */
  redrive(messageIds?: readonly string[]): number {
    const chosen = this.deadLetterList.filter((m) => !messageIds || messageIds.includes(m.messageId));
    for (const message of chosen) {
      this.deadLetterList.splice(this.deadLetterList.indexOf(message), 1);
      this.sequence += 1;
      this.messages.push({
        ...message,
        sequenceNumber: this.sequence,
        receiveCount: 0,
        firstReceivedAt: null,
        receiptHandle: null,
        invisibleUntil: null,
      });
    }
    return chosen.length;
  }

  private inFlight(message: QueuedMessage, at: number): boolean {
    return message.invisibleUntil !== null && message.invisibleUntil > at;
  }

  private deadLetterExhausted(at: number): void {
    for (let i = 0; i < this.messages.length; ) {
      const message = this.messages[i] as QueuedMessage;
      if (!this.inFlight(message, at) && message.receiveCount >= this.options.maxReceiveCount) {
        this.messages.splice(i, 1);
        this.deadLetterList.push({ ...message, receiptHandle: null, invisibleUntil: null });
      } else {
        i++;
      }
    }
  }

  private deliver(message: QueuedMessage, at: number): SQSRecord {
    this.deliveries += 1;
    message.receiveCount += 1;
    message.firstReceivedAt ??= at;
    message.receiptHandle = `${message.messageId}#${this.deliveries}`;
    message.invisibleUntil = at + this.options.visibilityTimeoutMs;
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
        SequenceNumber: String(message.sequenceNumber).padStart(20, '0'),
        MessageGroupId: message.groupId,
        MessageDeduplicationId: message.deduplicationId,
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(message.body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: QUEUE_ARN,
      awsRegion: 'local',
    };
  }
}

/** The message ids of a batch that Lambda would leave on a FIFO queue after this answer. */
export function failedRecords(
  records: readonly SQSRecord[],
  response: SQSBatchResponse | undefined,
): Set<string> {
  const all = new Set(records.map((r) => r.messageId));
  const listed = response?.batchItemFailures.map((f) => f.itemIdentifier);
  if (!listed || listed.some((id) => !all.has(id))) return all;
  const failed = new Set(listed);
  const failedGroups = new Set<string>();
  for (const record of records) {
    const group = record.attributes.MessageGroupId ?? '';
    if (failedGroups.has(group)) failed.add(record.messageId);
    else if (failed.has(record.messageId)) failedGroups.add(group);
  }
  return failed;
}
