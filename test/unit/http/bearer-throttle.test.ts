import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { RequestThrottle, ThrottledCaller } from '../../../shared/app/ports/request-throttle';
import type { OperationList } from '../../../shared/contract/operation-contract';
import type { Principal } from '../../../shared/domain/principal';
import { authorizerOAuthClientKey } from '../../../shared/http/authorizer-context';
import { createGroupHandler } from '../../../shared/http/group-handler';
import { lambdaContext, proxyEvent } from './proxy-event';

const contracts = {
  readPlan: {
    method: 'GET',
    path: '/v1/org/{org_id}/plan',
    group: 'plans',
    summary: 'Read a plan',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    pathParams: z.strictObject({ org_id: z.string() }),
    responses: { 200: z.object({ read: z.boolean() }) },
  },
} satisfies OperationList;

const member: Principal = {
  kind: 'user',
  orgId: 'org-token',
  userId: 'ada@example.com',
  role: 'user',
  scopes: ['plans:read'],
};

/** Admits `allowed` requests in all, then refuses with a Retry-After of 7 s; records each caller. */
function countingThrottle(allowed: number): RequestThrottle & { callers: ThrottledCaller[] } {
  const callers: ThrottledCaller[] = [];
  return {
    callers,
    admit: async (caller) => {
      callers.push(caller);
      return callers.length <= allowed ? { admitted: true } : { admitted: false, retryAfterSeconds: 7 };
    },
  };
}

function handlerWith(throttle: RequestThrottle) {
  return createGroupHandler(
    contracts,
    { readPlan: async () => ({ read: true }) },
    {
      logger: new Logger({ serviceName: 'test', logLevel: 'SILENT' }),
      requestThrottle: () => throttle,
    },
  );
}

function planEvent(oauthClient?: string) {
  const event = proxyEvent({
    resource: '/v1/org/{org_id}/plan',
    pathParameters: { org_id: 'org-in-path' },
    principal: member,
  });
  if (oauthClient !== undefined && event.requestContext.authorizer) {
    event.requestContext.authorizer[authorizerOAuthClientKey] = oauthClient;
  }
  return event;
}

describe('the Bearer throttle in the group handler', () => {
  it("counts a Bearer request under its client and the token's org, and refuses past the limit with Retry-After", async () => {
    // Prepare
    const throttle = countingThrottle(1);
    const handler = handlerWith(throttle);

    // Act
    const first = await handler(planEvent('shared-public'), lambdaContext());
    const second = await handler(planEvent('shared-public'), lambdaContext());

    // Assess
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(429);
    expect(second.headers?.['retry-after']).toBe('7');
    expect(JSON.parse(second.body)).toEqual({
      code: 429,
      status: 'Too Many Requests',
      message: expect.stringContaining('OAuth client'),
      errors: {},
    });
    expect(throttle.callers).toEqual([
      { clientId: 'shared-public', orgId: 'org-token' },
      { clientId: 'shared-public', orgId: 'org-token' },
    ]);
  });

  it('leaves API-key requests to API Gateway: no count, no write', async () => {
    // Prepare
    const throttle = countingThrottle(0);

    // Act
    const response = await handlerWith(throttle)(planEvent(), lambdaContext());

    // Assess
    expect(response.statusCode).toBe(200);
    expect(throttle.callers).toEqual([]);
  });
});
