import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizerHandler } from '../../../functions/authorizer/authorizer-handler';
import { createOrg, createUserKey } from '../../../shared/app/operator';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { type AccessTokenClaims, issueAccessToken } from '../../../shared/auth/access-tokens';
import { createLocalSigner } from '../../../shared/auth/signers/local-signer';
import type { Signer } from '../../../shared/auth/signers/signer';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { type OAuthKeys, oauthKeysOf } from '../../../shared/runtime/oauth-keys';
import { oauthFamilyKey } from '../../../shared/store/oauth/oauth-keys';
import { startTestTable, type TestTable } from '../../support/dynalite';

const issuer = 'http://127.0.0.1:3999';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;
let dir: string;
let signer: Signer;
let orgId: string;
let otherOrgId: string;
let keys: OAuthKeys;

/** The authorizer on the test's table, verifying tokens with the local signer's keys. */
const handler = createAuthorizerHandler(() => ({ ...ctx, accessTokens: () => keys.accessTokens }));

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
  dir = await mkdtemp(join(tmpdir(), 'bearer-authorizer-'));
  signer = createLocalSigner(dir);
  keys = oauthKeysOf(issuer, signer);
  orgId = (await createOrg(ctx, `Bearer Org ${randomUUID()}`, null)).id;
  otherOrgId = (await createOrg(ctx, `Other Org ${randomUUID()}`, null)).id;
  await createUserKey(ctx, orgId, 'ada@example.com', 'user');
});

afterAll(async () => {
  await table.close();
  await rm(dir, { recursive: true, force: true });
});

/** A refresh-token family as the authorization server stores it (docs/data-model.md, oauth_family). */
async function family(revoked: boolean): Promise<string> {
  const familyId = randomUUID();
  await table.client.send(
    new PutCommand({
      TableName: table.tableName,
      Item: { ...oauthFamilyKey(familyId), type: 'oauth_family', version: 1, familyId, revoked },
    }),
  );
  return familyId;
}

async function token(overrides: Partial<AccessTokenClaims> = {}): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return issueAccessToken(signer, {
    iss: issuer,
    sub: 'ada@example.com',
    aud: issuer,
    org_id: orgId,
    scope: 'plans:read plans:apply',
    client_id: 'dashboard-client',
    jti: randomUUID(),
    fam: await family(false),
    iat,
    exp: iat + 900,
    ...overrides,
  });
}

function authorizerEvent(headers: Record<string, string>): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:api/prod/GET/v1/org/o/commitment-plans/default',
    resource: '/v1/org/{org_id}/commitment-plans/default',
    path: '/v1/org/o/commitment-plans/default',
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

describe('the authorizer with Bearer access tokens', () => {
  it("acts for the token's user with the membership's current role and the token's scopes, naming its OAuth client for the functions' throttle", async () => {
    // Prepare
    const presented = await token({ scope: 'plans:read plans:apply * admin' });

    // Act
    const result = await handler(authorizerEvent({ Authorization: `Bearer ${presented}` }));

    // Assess
    expect(JSON.parse(String(result.context?.principal))).toEqual({
      kind: 'user',
      orgId,
      userId: 'ada@example.com',
      role: 'user',
      scopes: ['plans:read', 'plans:apply'],
    });
    // One usage-plan key for every client (none is created per client); the client goes on to the
    // functions, which throttle per client and org.
    expect(result.usageIdentifierKey).toBe('cpo-usage-oauth-clients');
    expect(result.context?.oauthClient).toBe('dashboard-client');
    expect(result.policyDocument.Statement[0]?.Effect).toBe('Allow');
  });

  it('refuses a token of a revoked family, of an org the user is not a member of, of another issuer, or tampered', async () => {
    // Prepare
    const genuine = await token();
    const [header, payload, signature] = genuine.split('.');
    const claims = JSON.parse(Buffer.from(String(payload), 'base64url').toString()) as AccessTokenClaims;
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, org_id: otherOrgId })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${payload}.`;
    const presented = [
      await token({ fam: await family(true) }),
      await token({ fam: randomUUID() }),
      await token({ org_id: otherOrgId }),
      await token({ iss: 'https://elsewhere.example.com' }),
      tampered,
      unsigned,
    ];

    // Act
    const refusals = await Promise.all(
      presented.map((jwt) =>
        handler(authorizerEvent({ authorization: `Bearer ${jwt}` })).then(
          () => 'allowed',
          (error: Error) => error.message,
        ),
      ),
    );

    // Assess
    expect(refusals).toEqual(Array.from({ length: presented.length }, () => 'Unauthorized'));
  });

  it('refuses an Authorization header of another scheme', async () => {
    // Act
    const refusal = handler(
      authorizerEvent({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
    );

    // Assess
    await expect(refusal).rejects.toThrow('Unauthorized');
  });
});
