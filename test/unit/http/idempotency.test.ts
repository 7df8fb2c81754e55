import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import * as z from 'zod';
import type { OperationList } from '../../../shared/contract/operation-contract';
import { ConflictError } from '../../../shared/domain/errors';
import { inFlightExpiryMs } from '../../../shared/domain/idempotency';
import type { Principal } from '../../../shared/domain/principal';
import { createGroupHandler } from '../../../shared/http/group-handler';
import { idempotency } from '../../../shared/http/idempotency';
import { type Implementations, withHeaders } from '../../../shared/http/operation';
import { jsonBodies } from '../../../shared/http/request-bodies';
import { MemoryIdempotencyRecords } from '../../support/memory-idempotency-records';
import { lambdaContext, proxyEvent } from './proxy-event';

const ada: Principal = {
  kind: 'user',
  orgId: 'org-1',
  userId: 'ada@example.com',
  role: 'admin',
  scopes: ['*'],
};
const partner: Principal = { kind: 'partner', orgId: 'org-1', scopes: ['*'] };

const planPath = z.strictObject({ org_id: z.string(), plan_id: z.string() });

/** A money-moving POST as the operation list states one, and a read beside it. */
const contracts = {
  purchase: {
    method: 'POST',
    path: '/orgs/{org_id}/plans/{plan_id}/purchase',
    group: 'plan-purchases',
    summary: 'Purchase',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    pathParams: planPath,
    body: z.strictObject({ email: z.email(), note: z.object({ a: z.number(), b: z.number() }).optional() }),
    responses: { 200: z.object({}) },
    idempotent: true,
  },
  getPlan: {
    method: 'GET',
    path: '/orgs/{org_id}/plans/{plan_id}',
    group: 'plan-purchases',
    summary: 'Read',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    pathParams: planPath,
    responses: { 200: z.object({}) },
  },
} satisfies OperationList;

describe('Idempotency-Key through the group handler', () => {
  let records: MemoryIdempotencyRecords;
  let nowMs: number;
  let runs: number;
  /** What the purchase does on its next run; by default it answers the run's number. */
  let nextRun: () => Promise<unknown>;
  let stdout: MockInstance<typeof process.stdout.write>;
  let stderr: MockInstance<typeof process.stderr.write>;

  beforeEach(() => {
    records = new MemoryIdempotencyRecords();
    nowMs = Date.parse('2025-06-01T12:00:00Z');
    runs = 0;
    nextRun = async () => withHeaders({ run: runs }, { 'x-run': String(runs) });
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });

  afterEach(() => {
    stdout.mockRestore();
    stderr.mockRestore();
  });

  const implementations: Implementations<typeof contracts> = {
    purchase: async () => {
      runs += 1;
      return nextRun();
    },
    getPlan: async () => ({}),
  };

  function handler() {
    return createGroupHandler(contracts, implementations, {
      logger: new Logger({ serviceName: 'test' }),
      idempotency: idempotency({ records: () => records, clock: { now: () => new Date(nowMs) } }),
      bodies: jsonBodies,
    });
  }

  function purchase(
    options: {
      key?: string;
      body?: unknown;
      planId?: string;
      principal?: Principal;
      requestId?: string;
    } = {},
  ) {
    return handler()(
      proxyEvent({
        httpMethod: 'POST',
        resource: '/orgs/{org_id}/plans/{plan_id}/purchase',
        pathParameters: { org_id: 'org-1', plan_id: options.planId ?? 'plan-1' },
        headers: {
          'Content-Type': 'application/json',
          ...(options.key === undefined ? {} : { 'Idempotency-Key': options.key }),
          ...(options.requestId === undefined ? {} : { 'x-request-id': options.requestId }),
        },
        body: JSON.stringify(options.body ?? { email: 'bob@example.com' }),
        principal: options.principal ?? ada,
      }),
      lambdaContext(),
    );
  }

  function jsonOf(result: APIGatewayProxyResult): Record<string, unknown> {
    return JSON.parse(result.body) as Record<string, unknown>;
  }

  it('runs every request without a key, recording nothing', async () => {
    // Act
    await purchase();
    const second = await purchase();

    // Assess
    expect(runs).toBe(2);
    expect(jsonOf(second)).toEqual({ run: 2 });
    expect(records.records.size).toBe(0);
  });

  it('replays the first response to a repeat, with its status, body and headers, saying it is a replay', async () => {
    // Prepare
    const first = await purchase({
      key: 'k-1',
      requestId: 'first',
      body: { email: 'bob@example.com', note: { a: 1, b: 2 } },
    });

    // Act: the same request, its body's fields in another order.
    const again = await purchase({
      key: 'k-1',
      requestId: 'second',
      body: { note: { b: 2, a: 1 }, email: 'bob@example.com' },
    });

    // Assess
    expect(runs).toBe(1);
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    expect(again.headers).toEqual({
      'content-type': 'application/json',
      'x-run': '1',
      'idempotent-replayed': 'true',
      'x-request-id': 'second',
    });
    expect(first.headers).not.toHaveProperty('idempotent-replayed');
  });

  it('refuses a key used with another request with 422 naming Idempotency-Key, running nothing', async () => {
    // Prepare
    await purchase({ key: 'k-1' });

    // Act
    const otherBody = await purchase({ key: 'k-1', body: { email: 'eve@example.com' } });
    const otherPlan = await purchase({ key: 'k-1', planId: 'plan-2' });

    // Assess
    expect(runs).toBe(1);
    for (const result of [otherBody, otherPlan]) {
      expect(result.statusCode).toBe(422);
      expect(jsonOf(result)).toMatchObject({
        code: 422,
        status: 'Unprocessable Entity',
        errors: { 'Idempotency-Key': ['was used with another request'] },
      });
    }
  });

  it('refuses a key that is empty, over 255 characters or not printable ASCII with 422, running nothing', async () => {
    // Act
    const results = await Promise.all(
      ['', 'k'.repeat(256), 'clé', 'a\u0007b'].map((key) => purchase({ key })),
    );

    // Assess
    expect(runs).toBe(0);
    for (const result of results) {
      expect(result.statusCode).toBe(422);
      expect(jsonOf(result).errors).toEqual({
        'Idempotency-Key': ['must be 1 to 255 printable ASCII characters'],
      });
    }
    expect((await purchase({ key: 'k'.repeat(255) })).statusCode).toBe(200);
  });

  it('answers 409 to a repeat while the first request is in flight, and replays once it has ended', async () => {
    // Prepare: the first request waits inside the operation until released.
    let finish: () => void = () => undefined;
    nextRun = () =>
      new Promise((resolve) => {
        finish = () => resolve({ run: 1 });
      });
    const first = purchase({ key: 'k-1' });
    await vi.waitFor(() => expect(runs).toBe(1));

    // Act
    const during = await purchase({ key: 'k-1' });
    finish();
    await first;
    const after = await purchase({ key: 'k-1' });

    // Assess
    expect(during.statusCode).toBe(409);
    expect(jsonOf(during).message).toMatch(/still in progress/);
    expect(after.statusCode).toBe(200);
    expect(after.headers?.['idempotent-replayed']).toBe('true');
    expect(runs).toBe(1);
  });

  it('lets a repeat run once the request in flight is older than the in-flight expiry (abandoned)', async () => {
    // Prepare: a request whose process died holding the key.
    nextRun = () => new Promise(() => undefined);
    void purchase({ key: 'k-1' });
    await vi.waitFor(() => expect(runs).toBe(1));
    nextRun = async () => ({ run: runs });

    // Act
    nowMs += inFlightExpiryMs;
    const retry = await purchase({ key: 'k-1' });

    // Assess
    expect(retry.statusCode).toBe(200);
    expect(jsonOf(retry)).toEqual({ run: 2 });
  });

  it('releases the key of a failed request, so that a retry runs again', async () => {
    // Prepare
    nextRun = async () => {
      throw new ConflictError('The plan is being applied.');
    };
    const failed = await purchase({ key: 'k-1' });
    const crashed = await (async () => {
      nextRun = async () => {
        throw new Error('connection reset');
      };
      return purchase({ key: 'k-1' });
    })();
    nextRun = async () => ({ run: runs });

    // Act
    const retry = await purchase({ key: 'k-1' });

    // Assess
    expect([failed.statusCode, crashed.statusCode, retry.statusCode]).toEqual([409, 500, 200]);
    expect(jsonOf(retry)).toEqual({ run: 3 });
    expect(retry.headers).not.toHaveProperty('idempotent-replayed');
  });

  it('records nothing for a request refused by validation, so its key stays free', async () => {
    // Act
    const invalid = await purchase({ key: 'k-1', body: { email: 'not an e-mail' } });
    const valid = await purchase({ key: 'k-1' });

    // Assess
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(jsonOf(invalid).errors as object)).toEqual(['email']);
    expect(valid.statusCode).toBe(200);
    expect(runs).toBe(1);
  });

  it('keeps the keys of different callers apart', async () => {
    // Act
    await purchase({ key: 'k-1' });
    const other = await purchase({ key: 'k-1', principal: partner });

    // Assess
    expect(runs).toBe(2);
    expect(other.headers).not.toHaveProperty('idempotent-replayed');
  });

  it('runs a repeat anew once the first response is a day old', async () => {
    // Prepare
    await purchase({ key: 'k-1' });

    // Act
    nowMs += 24 * 60 * 60 * 1000;
    const later = await purchase({ key: 'k-1', body: { email: 'eve@example.com' } });

    // Assess
    expect(later.statusCode).toBe(200);
    expect(runs).toBe(2);
  });
});

describe('creating a group handler with an idempotent operation', () => {
  it('fails without the idempotency middleware', () => {
    // Act
    const create = () =>
      createGroupHandler(contracts, { purchase: async () => ({}), getPlan: async () => ({}) });

    // Assess
    expect(create).toThrow(/purchase is idempotent: createGroupHandler needs the idempotency option/);
  });

  it('does not ask for the records until a request carries a key', () => {
    // Prepare
    const records = vi.fn(() => new MemoryIdempotencyRecords());

    // Act
    createGroupHandler(
      contracts,
      { purchase: async () => ({}), getPlan: async () => ({}) },
      { idempotency: idempotency({ records }), bodies: jsonBodies },
    );

    // Assess
    expect(records).not.toHaveBeenCalled();
  });
});
