import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizerHandler } from '../../../functions/authorizer/authorizer-handler';
import { createPartner, revokeKey } from '../../../shared/app/operator';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

/** The authorizer on the test's table; this suite presents API keys only, never a token. */
const handler = createAuthorizerHandler(() => ({
  ...ctx,
  accessTokens: () => {
    throw new Error('This suite presents no access token');
  },
}));

afterAll(async () => {
  await table.close();
});

function authorizerEvent(headers: Record<string, string>): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:api/prod/GET/v2/org/org-1/partners',
    resource: '/v2/org/{org_id}/partners',
    path: '/v2/org/org-1/partners',
    httpMethod: 'GET',
    headers,
    multiValueHeaders: {},
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'gateway-request-id' } as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}

describe('the authorizer', () => {
  it("names the key's own throttle bucket: usageIdentifierKey is the key id's usage identifier", async () => {
    // Prepare
    const [first, second] = [await createPartner(ctx, 'Reseller A'), await createPartner(ctx, 'Reseller B')];

    // Act
    const results = await Promise.all(
      [first, second].map(({ key }) => handler(authorizerEvent({ 'X-Api-Key': ` ${key.apiKey} ` }))),
    );

    // Assess
    expect(results.map((result) => result.usageIdentifierKey)).toEqual([
      `cpk-usage-${first.key.keyId}`,
      `cpk-usage-${second.key.keyId}`,
    ]);
    expect(results.map((result) => result.policyDocument.Statement[0]?.Effect)).toEqual(['Allow', 'Allow']);
  });

  it('refuses a missing, malformed or revoked key as Unauthorized', async () => {
    // Prepare
    const { key } = await createPartner(ctx, 'Reseller C');
    await revokeKey(ctx, key.keyId);

    // Act
    const refusals = await Promise.all(
      ([{}, { 'x-api-key': 'not-a-key' }, { 'x-api-key': key.apiKey }] as Record<string, string>[]).map(
        (headers) => handler(authorizerEvent(headers)).catch((error: Error) => error.message),
      ),
    );

    // Assess
    expect(refusals).toEqual(['Unauthorized', 'Unauthorized', 'Unauthorized']);
  });
});
