import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdempotencyClaim } from '../../../shared/app/ports';
import { idempotencyRetentionSeconds, inFlightExpiryMs } from '../../../shared/domain/idempotency';
import { idempotencyRecordKey } from '../../../shared/store/keys';
import { getItem, queryAll } from '../../../shared/store/table-client';
import { startTestTable, type TestTable } from '../../support/dynalite';

const now = new Date('2025-06-01T12:00:00.000Z');
const response = {
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: '{"id":"plan-1","status":"scheduled"}',
};

function aClaim(overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim {
  return {
    scope: `user:${randomUUID()}:ada@example.com`,
    key: 'order 42 #1',
    fingerprint: 'f'.repeat(64),
    attemptId: randomUUID(),
    ...overrides,
  };
}

function later(ms: number): Date {
  return new Date(now.getTime() + ms);
}

describe('idempotency record repository', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

  it('starts the first request with a key and keeps its record a day', async () => {
    // Prepare
    const claim = aClaim();

    // Act
    const beginning = await table.store.idempotencyRecords.begin(claim, now);

    // Assess
    expect(beginning).toEqual({ outcome: 'started' });
    const item = await getItem(table, idempotencyRecordKey(claim.scope, claim.key));
    expect(item).toMatchObject({
      type: 'idempotency_record',
      status: 'in_flight',
      fingerprint: claim.fingerprint,
      expiresAt: now.getTime() / 1000 + idempotencyRetentionSeconds,
    });
  });

  it('replays the completed response to the same request, and refuses the key to another', async () => {
    // Prepare
    const claim = aClaim();
    await table.store.idempotencyRecords.begin(claim, now);
    const completed = await table.store.idempotencyRecords.complete(claim, response, later(1000));

    // Act
    const again = await table.store.idempotencyRecords.begin(
      { ...claim, attemptId: randomUUID() },
      later(2000),
    );
    const other = await table.store.idempotencyRecords.begin(
      { ...claim, fingerprint: 'e'.repeat(64), attemptId: randomUUID() },
      later(2000),
    );

    // Assess
    expect(completed).toBe(true);
    expect(again).toEqual({ outcome: 'replay', response });
    expect(other).toEqual({ outcome: 'reused' });
  });

  it('keeps the keys of different callers apart', async () => {
    // Prepare
    const claim = aClaim();
    await table.store.idempotencyRecords.begin(claim, now);
    await table.store.idempotencyRecords.complete(claim, response, now);

    // Act
    const beginning = await table.store.idempotencyRecords.begin(
      { ...claim, scope: `${claim.scope}x`, attemptId: randomUUID() },
      now,
    );

    // Assess
    expect(beginning).toEqual({ outcome: 'started' });
  });

  it('replays a response too large for one item, stored in parts', async () => {
    // Prepare: random bytes do not compress, so the body needs several parts.
    const claim = aClaim();
    const large = { ...response, body: JSON.stringify({ data: randomBytes(450_000).toString('base64') }) };
    await table.store.idempotencyRecords.begin(claim, now);
    await table.store.idempotencyRecords.complete(claim, large, now);

    // Act
    const again = await table.store.idempotencyRecords.begin({ ...claim, attemptId: randomUUID() }, now);

    // Assess
    expect(again).toEqual({ outcome: 'replay', response: large });
    const items = await queryAll(table, {
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': idempotencyRecordKey(claim.scope, claim.key).PK },
    });
    expect(items.length).toBeGreaterThan(1);
  });

  it('reports the same request in flight, and lets another take the key over once the first is abandoned', async () => {
    // Prepare
    const first = aClaim();
    const second = { ...first, attemptId: randomUUID() };
    await table.store.idempotencyRecords.begin(first, now);

    // Act
    const whileRunning = await table.store.idempotencyRecords.begin(second, later(inFlightExpiryMs - 1));
    const afterExpiry = await table.store.idempotencyRecords.begin(second, later(inFlightExpiryMs));
    const lateCompletion = await table.store.idempotencyRecords.complete(
      first,
      response,
      later(inFlightExpiryMs),
    );
    const secondCompletion = await table.store.idempotencyRecords.complete(
      second,
      response,
      later(inFlightExpiryMs),
    );

    // Assess
    expect(whileRunning).toEqual({ outcome: 'in_flight' });
    expect(afterExpiry).toEqual({ outcome: 'started' });
    expect(lateCompletion).toBe(false);
    expect(secondCompletion).toBe(true);
  });

  it('runs a request again after the record is released, and ignores a release by an attempt that lost it', async () => {
    // Prepare
    const first = aClaim();
    const second = { ...first, attemptId: randomUUID() };
    await table.store.idempotencyRecords.begin(first, now);
    await table.store.idempotencyRecords.release(first);

    // Act
    const retry = await table.store.idempotencyRecords.begin(second, now);
    await table.store.idempotencyRecords.release(first);
    const third = await table.store.idempotencyRecords.begin({ ...first, attemptId: randomUUID() }, now);

    // Assess
    expect(retry).toEqual({ outcome: 'started' });
    expect(third).toEqual({ outcome: 'in_flight' });
  });

  it('never releases a completed record', async () => {
    // Prepare
    const claim = aClaim();
    await table.store.idempotencyRecords.begin(claim, now);
    await table.store.idempotencyRecords.complete(claim, response, now);

    // Act
    await table.store.idempotencyRecords.release(claim);

    // Assess
    expect(await table.store.idempotencyRecords.begin({ ...claim, attemptId: randomUUID() }, now)).toEqual({
      outcome: 'replay',
      response,
    });
  });

  it('runs a request anew once the record expired, though the TTL has not deleted it', async () => {
    // Prepare
    const claim = aClaim();
    await table.store.idempotencyRecords.begin(claim, now);
    await table.store.idempotencyRecords.complete(claim, response, now);
    const dayLater = later(idempotencyRetentionSeconds * 1000);

    // Act
    const other = aClaim({ scope: claim.scope, key: claim.key, fingerprint: 'e'.repeat(64) });
    const beginning = await table.store.idempotencyRecords.begin(other, dayLater);

    // Assess
    expect(beginning).toEqual({ outcome: 'started' });
    const item = await getItem(table, idempotencyRecordKey(claim.scope, claim.key));
    expect(item).toMatchObject({ status: 'in_flight', fingerprint: other.fingerprint });
    expect(item).not.toHaveProperty('responseBody');
  });

  it('starts exactly one of two concurrent requests with the same key', async () => {
    // Prepare
    const claim = aClaim();

    // Act
    const outcomes = await Promise.all([
      table.store.idempotencyRecords.begin(claim, now),
      table.store.idempotencyRecords.begin({ ...claim, attemptId: randomUUID() }, now),
    ]);

    // Assess
    expect(outcomes.map((beginning) => beginning.outcome).sort()).toEqual(['in_flight', 'started']);
  });

  it('lets exactly one of two concurrent requests take over an abandoned record', async () => {
    // Prepare
    const claim = aClaim();
    await table.store.idempotencyRecords.begin(claim, now);
    const expired = later(inFlightExpiryMs);

    // Act
    const outcomes = await Promise.all([
      table.store.idempotencyRecords.begin({ ...claim, attemptId: randomUUID() }, expired),
      table.store.idempotencyRecords.begin({ ...claim, attemptId: randomUUID() }, expired),
    ]);

    // Assess
    expect(outcomes.map((beginning) => beginning.outcome).sort()).toEqual(['in_flight', 'started']);
  });
});
