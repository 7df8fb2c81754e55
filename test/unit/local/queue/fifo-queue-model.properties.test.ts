import type { SQSRecord } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FifoQueueModel } from '../../../../local/queue/fifo-queue-model';

/**
 * The queue model against a naive reading of SQS FIFO: random sends (with repeated deduplication
 * ids), clock moves, receives, and consumers that acknowledge, report failures, throw, or never
 * answer (a crash: the batch stays in flight until its visibility timeout). The naive side keeps
 * plain lists and answers every question by scanning them.
 */
const VISIBILITY = 30_000;
const WINDOW = 5 * 60_000;
const MAX_RECEIVES = 5;
const GROUPS = ['org-a', 'org-b', 'org-c'];

type Operation =
  | { kind: 'send'; entries: Array<{ group: number; dedup: number }> }
  | { kind: 'advance'; ms: number }
  | { kind: 'receive' }
  | { kind: 'settle'; batch: number; answer: 'throw' | boolean[] };

// Weighted towards receives and clock moves: the redelivery and timeout paths need several in a row.
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      entries: fc.array(fc.record({ group: fc.nat(2), dedup: fc.nat(7) }), { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(0, 1_000, VISIBILITY - 1, VISIBILITY, 2 * 60_000, WINDOW - 1, WINDOW),
    }),
  },
  { weight: 4, arbitrary: fc.constant({ kind: 'receive' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      batch: fc.nat(3),
      answer: fc.oneof(
        fc.constant('throw' as const),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
      ),
    }),
  },
);

interface Sent {
  readonly body: string;
  readonly group: string;
  readonly dedup: string;
  readonly at: number;
}

interface Delivery {
  readonly records: SQSRecord[];
  readonly until: number;
}

/**
 * `poisoned`: deduplication ids whose messages the consumer fails for ever once the random
 * operations are over, so they must end dead-lettered after exactly maxReceiveCount receives.
 */
function run(
  operations: readonly Operation[],
  batchSize: number,
  poisoned: ReadonlySet<string>,
): { deadLetters: number; redeliveries: number } {
  let now = 0;
  const queue = new FifoQueueModel(() => now, {
    visibilityTimeoutMs: VISIBILITY,
    deduplicationWindowMs: WINDOW,
    maxReceiveCount: MAX_RECEIVES,
    batchSize,
  });
  const accepted: Sent[] = [];
  const deleted = new Set<string>();
  const deliveriesOf = new Map<string, number>();
  const lastDeliveryOf = new Map<string, string>();
  let open: Delivery[] = [];
  let sends = 0;

  const deadLettered = () => new Set(queue.deadLetters().map((m) => m.body));
  const finished = (body: string) => deleted.has(body) || deadLettered().has(body);

  function receiveAndCheck(): SQSRecord[] {
    const records = queue.receive();
    const dead = deadLettered();
    records.forEach((record, position) => {
      const sent = accepted.find((s) => s.body === record.body);
      // Only accepted messages, never one deleted or dead-lettered.
      expect(sent).toBeDefined();
      expect(deleted.has(record.body) || dead.has(record.body)).toBe(false);
      const group = sent?.group ?? '';
      // Never two deliveries of one group in flight.
      const busy = open.filter((d) => d.until > now).flatMap((d) => d.records);
      expect(busy.filter((r) => r.attributes.MessageGroupId === group)).toEqual([]);
      // FIFO: every earlier message of the group is finished or ahead of it in this batch.
      const ahead = new Set(records.slice(0, position).map((r) => r.body));
      for (const earlier of accepted.slice(0, accepted.indexOf(sent as Sent))) {
        if (earlier.group === group) expect(finished(earlier.body) || ahead.has(earlier.body)).toBe(true);
      }
      const count = (deliveriesOf.get(record.body) ?? 0) + 1;
      expect(count).toBeLessThanOrEqual(MAX_RECEIVES);
      expect(record.attributes.ApproximateReceiveCount).toBe(String(count));
      deliveriesOf.set(record.body, count);
      lastDeliveryOf.set(record.body, record.receiptHandle);
    });
    // A dead letter was received exactly maxReceiveCount times.
    for (const body of dead) expect(deliveriesOf.get(body)).toBe(MAX_RECEIVES);
    if (records.length > 0) open.push({ records, until: now + VISIBILITY });
    return records;
  }

  function settle(delivery: Delivery, answer: 'throw' | boolean[]): void {
    open = open.filter((d) => d !== delivery);
    const failed =
      answer === 'throw' ? delivery.records : delivery.records.filter((_, i) => answer[i] === false);
    queue.settle(
      delivery.records,
      answer === 'throw'
        ? undefined
        : { batchItemFailures: failed.map((r) => ({ itemIdentifier: r.messageId })) },
    );
    // Naive Lambda: after a group's first failure, the rest of the group in the batch is kept.
    const failedGroups = new Set<string>();
    const dead = deadLettered();
    for (const record of delivery.records) {
      const group = record.attributes.MessageGroupId ?? '';
      if (failed.includes(record) || failedGroups.has(group)) {
        failedGroups.add(group);
        continue;
      }
      // A delete takes effect only with the current receipt handle.
      if (lastDeliveryOf.get(record.body) === record.receiptHandle && !dead.has(record.body))
        deleted.add(record.body);
    }
  }

  for (const op of operations) {
    if (op.kind === 'send') {
      const entries = op.entries.map(({ group, dedup }) => ({
        groupId: GROUPS[group] ?? 'org-a',
        deduplicationId: `d${dedup}`,
        body: `d${dedup}#${sends++}`,
      }));
      queue.send(entries);
      for (const entry of entries) {
        // Naive dedup: a first send of this id less than a window ago.
        const duplicate = accepted.some((s) => s.dedup === entry.deduplicationId && now - s.at < WINDOW);
        if (!duplicate)
          accepted.push({ body: entry.body, group: entry.groupId, dedup: entry.deduplicationId, at: now });
      }
    } else if (op.kind === 'advance') {
      now += op.ms;
    } else if (op.kind === 'receive') {
      receiveAndCheck();
    } else {
      const delivery = open[op.batch % Math.max(open.length, 1)];
      if (delivery) settle(delivery, op.answer);
    }
  }

  // Liveness: with a healthy consumer and time passing, everything ends deleted or dead-lettered.
  for (let round = 0; round < 200 && queue.depth > 0; round++) {
    now += VISIBILITY;
    open = [];
    for (let records = receiveAndCheck(); records.length > 0; records = receiveAndCheck()) {
      const delivery = open[open.length - 1] as Delivery;
      settle(
        delivery,
        records.map((record) => !poisoned.has(record.attributes.MessageDeduplicationId ?? '')),
      );
    }
  }
  expect(queue.depth).toBe(0);
  const dead = deadLettered();
  for (const sent of accepted) {
    // At least once: every accepted message was delivered, and ends acknowledged or dead-lettered.
    expect(deliveriesOf.get(sent.body) ?? 0).toBeGreaterThan(0);
    expect(deleted.has(sent.body) !== dead.has(sent.body)).toBe(true);
  }
  expect(dead.size + deleted.size).toBe(accepted.length);
  return { deadLetters: dead.size, redeliveries: [...deliveriesOf.values()].filter((n) => n > 1).length };
}

describe('FIFO queue model against a naive SQS FIFO', () => {
  it('delivers each accepted message at least once until acknowledged, one batch per group, in order', () => {
    let runs = 0;
    let deadLetters = 0;
    let redeliveries = 0;
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 60 }),
        fc.integer({ min: 1, max: 10 }),
        fc.uniqueArray(fc.nat(7), { maxLength: 3 }),
        (operations, size, poisoned) => {
          runs += 1;
          const seen = run(operations, size, new Set(poisoned.map((d) => `d${d}`)));
          deadLetters += seen.deadLetters;
          redeliveries += seen.redeliveries;
        },
      ),
      { numRuns: 2_000 },
    );
    // The runs reached the retry and dead-letter paths, not only the happy one.
    expect(runs).toBe(2_000);
    expect(deadLetters).toBeGreaterThan(100);
    expect(redeliveries).toBeGreaterThan(100);
  });
});
