import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizerHandler } from '../../../functions/authorizer/authorizer-handler';
import { localAuthorization } from '../../../local/http/local-authorizer';
import { createLocalServer } from '../../../local/http/local-server';
import { countStorageCalls, type StorageCallCounter } from '../../../local/store/storage-calls';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg, createPartner, createUserKey } from '../../../shared/app/operator';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import type { FunctionGroup } from '../../../shared/contract/operation-contract';
import { routes } from '../../../shared/contract/operations';
import type { ProxyHandler } from '../../../shared/http/group-handler';
import { createAppContext } from '../../../shared/runtime/app-context';
import { callApi } from '../../support/api-client';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { alwaysOn, fleet, gcpN2Standard8, recordsOf, usageLines } from '../../support/usage-files';

/**
 * What one line-items request costs in storage calls (docs/plans-api.md, Storage calls), through
 * the local server's stack in this process: the authorizer, then the plans function, on one
 * counted DynamoDB client. Requests are sent one at a time, so each one's calls are the counter's
 * difference.
 */

let table: TestTable;
let calls: StorageCallCounter;
let server: Server;
let baseUrl: string;
let orgId: string;
let userKey: string;
let partnerKey: string;
let planId: string;
let ctx: WithPlanComputation<AppContext>;

/** The authorizer on the test's table; the requests present API keys only, never a token. */
const authorizer = createAuthorizerHandler(() => ({
  ...ctx,
  accessTokens: () => {
    throw new Error('This test presents no access token');
  },
}));

async function loadHandler(group: FunctionGroup): Promise<ProxyHandler> {
  if (group !== 'plans') throw new Error(`This test serves the plans group only, not ${group}`);
  return (await import('../../../functions/plans/plans-handler')).createPlansHandler(
    () => ctx,
    () => {
      throw new Error('This test presents no access token, so no request is throttled per OAuth client');
    },
  );
}

beforeAll(async () => {
  table = await startTestTable();
  calls = countStorageCalls(table);
  ctx = createAppContext(table);

  const { org: partner, key } = await createPartner(ctx, 'Counting Partner');
  const org = await createOrg(ctx, 'Counted Customer', partner.id);
  const { key: user } = await createUserKey(ctx, org.id, 'admin@counted.example', 'admin');
  async function* lines() {
    yield* usageLines(
      '2026-10-01T00:00:00Z',
      720,
      fleet(3, 'vm', {
        ...gcpN2Standard8,
        unitsAt: alwaysOn,
      }),
    );
  }
  await importUsage(ctx, { orgId: org.id, records: recordsOf(lines()) });
  orgId = org.id;
  userKey = user.apiKey;
  partnerKey = key.apiKey;
  planId = (await ctx.repos.plans.planSet(org.id, 'gcp'))?.computed?.planIds[2] as string;

  server = createLocalServer({ routes, loadHandler, authorize: localAuthorization(authorizer) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await table?.close();
});

/** The storage calls of one line-items request, per command, and its status. */
async function lineItemsRequest(apiKey: string) {
  const before = calls.byCommand();
  const response = await callApi(
    baseUrl,
    `/v1/org/${orgId}/commitment-plans/${planId}/line-items?page_size=100`,
    {
      apiKey,
    },
  );
  const sent = Object.fromEntries(
    Object.entries(calls.byCommand())
      .map(([command, count]) => [command, count - (before[command] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
  return { status: response.status, items: response.body.length as number, sent };
}

describe('storage calls of a line-items request', () => {
  it('costs three reads once the plan and the org placement are in memory: the key, the membership and the plan set', async () => {
    // Act
    const cold = await lineItemsRequest(userKey);
    const warm = [
      await lineItemsRequest(userKey),
      await lineItemsRequest(userKey),
      await lineItemsRequest(userKey),
    ];

    // Assess: the first request also reads the org's placement, records the key's use and reads
    // the plan (its item in one batch of three possible keys, its line items in one query); later
    // ones in the minute do not. The key, the membership and the plan set are read every time:
    // revoking a key, removing a member or superseding the plan takes effect at once.
    expect(cold).toEqual({
      status: 200,
      items: 1,
      sent: { GetItemCommand: 4, UpdateItemCommand: 1, BatchGetItemCommand: 1, QueryCommand: 1 },
    });
    for (const request of warm) {
      expect(request).toEqual({ status: 200, items: 1, sent: { GetItemCommand: 3 } });
    }
  });

  it('costs two reads for a partner key: the key and the plan set (the partner and child placements are in memory)', async () => {
    // Prepare: the first request of this key records its use.
    await lineItemsRequest(partnerKey);

    // Act
    const warm = await lineItemsRequest(partnerKey);

    // Assess
    expect(warm).toEqual({ status: 200, items: 1, sent: { GetItemCommand: 2 } });
  });
});
