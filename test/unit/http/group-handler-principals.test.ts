import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import { openApiOperations } from '../../../shared/contract/operations/openapi';
import type { Principal } from '../../../shared/domain/principal';
import { createGroupHandler } from '../../../shared/http/group-handler';
import {
  admin,
  capturedLogs,
  contracts,
  implementations,
  jsonOf,
  partnerOrgsHandler,
  registerEvent,
} from '../../support/partner-orgs-group';
import { lambdaContext, proxyEvent } from './proxy-event';

describe('group handler: principals and scopes', () => {
  // The logger's lines are kept off the test output.
  capturedLogs();

  it('answers 401 when a protected route has no principal', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = { ...registerEvent(JSON.stringify({ name: 'Acme' })) };
    event.requestContext = { ...event.requestContext, authorizer: undefined };

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(401);
    expect(result.headers?.['www-authenticate']).toBe('Bearer');
    expect(jsonOf(result)).toMatchObject({ code: 401, status: 'Unauthorized', errors: {} });
  });

  it('answers 403 with an insufficient_scope challenge when a Bearer token lacks the operation scope', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const readOnly: Principal = { ...admin, scopes: ['plans:read'] };
    const event = proxyEvent({ ...registerEvent(JSON.stringify({ name: 'Acme' })), principal: readOnly });
    const allowed = proxyEvent({
      ...registerEvent(JSON.stringify({ name: 'Acme' })),
      principal: { ...admin, scopes: ['plans:read', 'partner:write'] },
    });

    // Act
    const refused = await handler(event, lambdaContext());
    const served = await handler(allowed, lambdaContext());

    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.headers?.['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="partner:write"',
    );
    expect(jsonOf(refused)).toMatchObject({
      code: 403,
      message: 'This operation needs the scope partner:write.',
    });
    expect(served.statusCode).toBe(201);
  });

  it('refuses to build a handler for an operation behind the authorizer that states no scope', () => {
    // Prepare
    const { scope: _scope, ...unscoped } = contracts.registerOrg;

    // Act
    const build = () =>
      createGroupHandler({ registerOrg: unscoped }, { registerOrg: implementations.registerOrg });

    // Assess
    expect(build).toThrow(/must state its OAuth scope/);
  });

  it('answers 401 when the principal is not a valid principal', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      httpMethod: 'DELETE',
      resource: '/orgs/{org_id}',
      pathParameters: { org_id: 'org-1' },
      principal: { kind: 'user', orgId: 'org-1' },
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(401);
  });

  it('serves a public route without a principal', async () => {
    // Prepare
    const handler = createGroupHandler(
      openApiOperations,
      { getOpenApiDocument: async ({ principal }) => ({ principal }) },
      { logger: new Logger() },
    );

    // Act
    const result = await handler(
      proxyEvent({ resource: '/openapi.json', principal: admin }),
      lambdaContext(),
    );

    // Assess
    expect(result.statusCode).toBe(200);
    expect(jsonOf(result)).toEqual({ principal: null });
  });
});
