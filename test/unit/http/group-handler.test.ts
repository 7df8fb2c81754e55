import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import * as z from 'zod';
import type { OperationList } from '../../../shared/contract/operation-contract';
import { openApiOperations } from '../../../shared/contract/operations/openapi';
import { ConflictError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { createGroupHandler } from '../../../shared/http/group-handler';
import { oauthErrorAnswer } from '../../../shared/http/oauth-error-answer';
import { type Implementations, noContent, withHeaders } from '../../../shared/http/operation';
import { pageErrorAnswer } from '../../../shared/http/page-error-answer';
import { paginate, paginationHeaderName } from '../../../shared/http/pagination';
import { formBodies, jsonBodies } from '../../../shared/http/request-bodies';
import { lambdaContext, proxyEvent } from './proxy-event';

/** An API-key caller: every scope. */
const admin: Principal = { kind: 'user', orgId: 'org-1', userId: 'user-1', role: 'admin', scopes: ['*'] };

const partnerOrgPath = z.strictObject({ partner_org_id: z.string() });

/** A group's part of an operation list, as shared/contract/operations states them. */
const contracts = {
  registerOrg: {
    method: 'POST',
    path: '/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    summary: 'Register an org',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: partnerOrgPath,
    body: z.strictObject({
      name: z.string().min(1),
      users: z.array(z.strictObject({ email: z.email(), role: z.enum(['admin', 'user']) })).default([]),
    }),
    responses: { 201: z.object({}) },
  },
  listOrgs: {
    method: 'GET',
    path: '/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    summary: 'List orgs',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    pathParams: partnerOrgPath,
    query: z.strictObject({
      page: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
      ids: z.union([z.string().transform((id) => [id]), z.array(z.string())]).optional(),
    }),
    responses: { 200: z.array(z.string()) },
  },
  applyPlan: {
    method: 'POST',
    path: '/orgs/{org_id}/apply',
    group: 'partner-orgs',
    summary: 'Apply',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    responses: { 200: z.object({}) },
  },
  deleteOrg: {
    method: 'DELETE',
    path: '/orgs/{org_id}',
    group: 'partner-orgs',
    summary: 'Delete',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    responses: { 204: null },
  },
  failUnexpectedly: {
    method: 'GET',
    path: '/orgs/{org_id}/broken',
    group: 'partner-orgs',
    summary: 'Fail',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    responses: { 200: z.object({}) },
  },
} satisfies OperationList;

const implementations: Implementations<typeof contracts> = {
  registerOrg: async ({ pathParams, body, principal, requestId, headers, logger }) => {
    logger.info('org registered', { partner_org_id: pathParams.partner_org_id });
    return {
      partner: pathParams.partner_org_id,
      name: body.name,
      users: body.users.length,
      caller: principal.orgId,
      requestId,
      idempotencyKey: headers['idempotency-key'] ?? null,
    };
  },
  listOrgs: async ({ query }) => {
    const page = paginate(query.ids ?? ['a', 'b', 'c'], { page: query.page, pageSize: query.page_size });
    return withHeaders(page.items, { [paginationHeaderName]: page.header });
  },
  applyPlan: async ({ pathParams }) => ({ applied: (pathParams as Record<string, string>).org_id }),
  deleteOrg: async ({ pathParams }) => {
    if ((pathParams as Record<string, string>).org_id === 'busy') {
      throw new ConflictError('The org has running purchases.');
    }
    return noContent();
  },
  failUnexpectedly: async () => {
    throw new Error('connection to db-secret-host refused');
  },
};

function partnerOrgsHandler(logger = new Logger({ serviceName: 'test' })) {
  return createGroupHandler(contracts, implementations, { logger, bodies: jsonBodies });
}

function registerEvent(
  body: string | null,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
) {
  return proxyEvent({
    httpMethod: 'POST',
    resource: '/partners/{partner_org_id}/orgs',
    pathParameters: { partner_org_id: 'partner-1' },
    headers,
    body,
    principal: admin,
  });
}

function jsonOf(result: APIGatewayProxyResult): Record<string, unknown> {
  return JSON.parse(result.body) as Record<string, unknown>;
}

describe('group handler', () => {
  // The logger writes INFO lines to stdout and ERROR lines to stderr.
  let stdout: MockInstance<typeof process.stdout.write>;
  let stderr: MockInstance<typeof process.stderr.write>;

  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });

  afterEach(() => {
    stdout.mockRestore();
    stderr.mockRestore();
  });

  function logOutput(): string {
    return [...stdout.mock.calls, ...stderr.mock.calls].map(([chunk]) => String(chunk)).join('');
  }

  function logLines(): Record<string, unknown>[] {
    return logOutput()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('answers a valid request with the operation result as JSON at the success status', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = registerEvent(
      JSON.stringify({ name: 'Acme', users: [{ email: 'a@acme.test', role: 'user' }] }),
      {
        'Content-Type': 'application/json',
        'Idempotency-Key': 'key-1',
      },
    );

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(201);
    expect(result.headers?.['content-type']).toBe('application/json');
    expect(jsonOf(result)).toEqual({
      partner: 'partner-1',
      name: 'Acme',
      users: 1,
      caller: 'org-1',
      requestId: 'gateway-request-id',
      idempotencyKey: 'key-1',
    });
  });

  it('answers 400 with the error body when the JSON is malformed', async () => {
    // Prepare
    const handler = partnerOrgsHandler();

    // Act
    const result = await handler(registerEvent('{"name": "Acme",'), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(400);
    expect(jsonOf(result)).toEqual({
      code: 400,
      status: 'Bad Request',
      message: 'The request body is not valid JSON.',
      errors: {},
    });
  });

  it('answers 415 when a body is not declared as JSON', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = registerEvent(JSON.stringify({ name: 'Acme' }), { 'Content-Type': 'text/plain' });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(415);
    expect(jsonOf(result)).toMatchObject({ code: 415, status: 'Unsupported Media Type', errors: {} });
  });

  it('answers 415 when a body comes without a content type', async () => {
    // Prepare
    const handler = partnerOrgsHandler();

    // Act
    const result = await handler(registerEvent(JSON.stringify({ name: 'Acme' }), {}), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(415);
  });

  it('accepts the JSON content type in any case and with parameters', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = registerEvent(JSON.stringify({ name: 'Acme' }), {
      'content-TYPE': 'Application/JSON; charset=UTF-8',
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(201);
  });

  it('answers 413 for a body one byte over 256 KiB and reads one of exactly 256 KiB', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const envelope = JSON.stringify({ name: '' });
    const atLimit = JSON.stringify({ name: 'x'.repeat(262_144 - envelope.length) });
    const overLimit = JSON.stringify({ name: 'x'.repeat(262_145 - envelope.length) });

    // Act
    const accepted = await handler(registerEvent(atLimit), lambdaContext());
    const refused = await handler(registerEvent(overLimit), lambdaContext());

    // Assess
    expect(Buffer.byteLength(atLimit)).toBe(262_144);
    expect(accepted.statusCode).toBe(201);
    expect(refused.statusCode).toBe(413);
    expect(jsonOf(refused)).toMatchObject({ code: 413, status: 'Payload Too Large' });
  });

  it('measures the body limit on the decoded bytes of a base64 body', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const envelope = JSON.stringify({ name: '' });
    const atLimit = JSON.stringify({ name: 'x'.repeat(262_144 - envelope.length) });
    const event = { ...registerEvent(Buffer.from(atLimit).toString('base64')), isBase64Encoded: true };

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(201);
  });

  it('answers 422 naming each unknown field and each invalid nested field', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const body = {
      name: 'Acme',
      plan: 'gold',
      users: [{ email: 'not-an-email', role: 'user', admin: true }],
    };

    // Act
    const result = await handler(registerEvent(JSON.stringify(body)), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(422);
    expect(jsonOf(result)).toEqual({
      code: 422,
      status: 'Unprocessable Entity',
      message: expect.any(String),
      errors: {
        plan: ['is not an allowed field'],
        'users.0.email': ['Invalid email address'],
        'users.0.admin': ['is not an allowed field'],
      },
    });
  });

  it('answers 422 naming the body when a required body is missing', async () => {
    // Prepare
    const handler = partnerOrgsHandler();

    // Act
    const result = await handler(registerEvent(null), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(422);
    expect(Object.keys(jsonOf(result).errors as object)).toEqual(['body']);
  });

  it('answers 422 naming each bad query parameter', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      resource: '/partners/{partner_org_id}/orgs',
      pathParameters: { partner_org_id: 'partner-1' },
      queryStringParameters: { page_size: '0', sort: 'name' },
      multiValueQueryStringParameters: { page_size: ['0'], sort: ['name'] },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(422);
    expect(Object.keys(jsonOf(result).errors as object).sort()).toEqual(['page_size', 'sort']);
  });

  it('refuses a body sent to an operation that takes none', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      httpMethod: 'POST',
      resource: '/orgs/{org_id}/apply',
      pathParameters: { org_id: 'org-1' },
      headers: { 'content-type': 'application/json' },
      body: '{}',
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(422);
    expect(jsonOf(result).errors).toEqual({ body: ['This operation takes no request body.'] });
  });

  it('hands repeated query keys to the schema as an array and pages with an X-Pagination header', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      resource: '/partners/{partner_org_id}/orgs',
      pathParameters: { partner_org_id: 'partner-1' },
      queryStringParameters: { ids: 'c', page_size: '2' },
      multiValueQueryStringParameters: { ids: ['a', 'b', 'c'], page_size: ['2'] },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(200);
    expect(jsonOf(result)).toEqual(['a', 'b']);
    expect(JSON.parse(String(result.headers?.[paginationHeaderName]))).toEqual({
      total: 3,
      total_pages: 2,
      first_page: 1,
      last_page: 2,
      page: 1,
      previous_page: null,
      next_page: 2,
    });
  });

  it('answers 204 with no body and no content type for noContent()', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      httpMethod: 'DELETE',
      resource: '/orgs/{org_id}',
      pathParameters: { org_id: 'org-1' },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(204);
    expect(result.body).toBe('');
    expect(result.headers?.['content-type']).toBeUndefined();
  });

  it('maps a domain error thrown by the operation to its status', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      httpMethod: 'DELETE',
      resource: '/orgs/{org_id}',
      pathParameters: { org_id: 'busy' },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(409);
    expect(jsonOf(result)).toEqual({
      code: 409,
      status: 'Conflict',
      message: 'The org has running purchases.',
      errors: {},
    });
  });

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

  it('echoes a sane x-request-id on success and error responses', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const headers = { 'Content-Type': 'application/json', 'X-Request-Id': 'client-42.a_b' };

    // Act
    const success = await handler(registerEvent(JSON.stringify({ name: 'Acme' }), headers), lambdaContext());
    const failure = await handler(registerEvent('{', headers), lambdaContext());

    // Assess
    expect(success.headers?.['x-request-id']).toBe('client-42.a_b');
    expect(jsonOf(success).requestId).toBe('client-42.a_b');
    expect(failure.statusCode).toBe(400);
    expect(failure.headers?.['x-request-id']).toBe('client-42.a_b');
  });

  it('replaces an unsafe x-request-id with the gateway request id', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const unsafe = ['two words', 'x'.repeat(129), 'line\nbreak', ''];

    // Act
    const results = await Promise.all(
      unsafe.map((id) =>
        handler(
          registerEvent('{', { 'content-type': 'application/json', 'x-request-id': id }),
          lambdaContext(),
        ),
      ),
    );

    // Assess
    for (const result of results) {
      expect(result.headers?.['x-request-id']).toBe('gateway-request-id');
    }
  });

  it('generates a UUID request id when neither the caller nor the gateway gives one', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = registerEvent(JSON.stringify({ name: 'Acme' }));
    event.requestContext = { ...event.requestContext, requestId: '' };

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.headers?.['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('answers an unexpected error with a generic 500 and logs its cause', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const event = proxyEvent({
      resource: '/orgs/{org_id}/broken',
      pathParameters: { org_id: 'org-1' },
      principal: admin,
    });

    // Act
    const result = await handler(event, lambdaContext());

    // Assess
    expect(result.statusCode).toBe(500);
    expect(jsonOf(result)).toEqual({
      code: 500,
      status: 'Internal Server Error',
      message: 'The service failed to handle the request.',
      errors: {},
    });
    expect(result.body).not.toContain('db-secret-host');
    const failure = logLines().find((line) => line.level === 'ERROR');
    expect(JSON.stringify(failure)).toContain('db-secret-host');
    expect(failure?.request_id).toBe('gateway-request-id');
  });

  it('answers 404 for a resource the group does not serve', async () => {
    // Prepare
    const handler = partnerOrgsHandler();

    // Act
    const result = await handler(proxyEvent({ resource: '/openapi.json' }), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(404);
    expect(jsonOf(result)).toMatchObject({ code: 404, status: 'Not Found' });
  });

  it('logs one line per request with method, resource, status, latency and request id', async () => {
    // Prepare
    const handler = partnerOrgsHandler();

    // Act
    await handler(registerEvent(JSON.stringify({ name: 'Acme' })), lambdaContext());

    // Assess
    const requestLines = logLines().filter((line) => line.message === 'request');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: 'INFO',
      request_id: 'gateway-request-id',
      method: 'POST',
      resource: '/partners/{partner_org_id}/orgs',
      operation_id: 'registerOrg',
      status: 201,
      latency_ms: expect.any(Number),
    });
  });

  it('gives the operation a logger whose lines carry the request id', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const headers = { 'content-type': 'application/json', 'x-request-id': 'trace-7' };

    // Act
    await handler(registerEvent(JSON.stringify({ name: 'Acme' }), headers), lambdaContext());

    // Assess
    const operationLine = logLines().find((line) => line.message === 'org registered');
    expect(operationLine).toMatchObject({ request_id: 'trace-7', partner_org_id: 'partner-1' });
  });

  it('never logs credentials, cookies or the request body', async () => {
    // Prepare
    const handler = partnerOrgsHandler();
    const secrets = [
      'cpk_abcdefghijklmnop_SECRETSECRETSECRETSECRETSECRET01',
      'eyJhbGciOiJFUzI1NiJ9.tokenpart',
      'sid=cookie-secret',
      'body-secret-value',
    ];
    const headers = {
      'Content-Type': 'application/json',
      'x-api-key': secrets[0] as string,
      Authorization: `Bearer ${secrets[1]}`,
      Cookie: secrets[2] as string,
    };

    // Act
    await handler(registerEvent(JSON.stringify({ name: secrets[3] }), headers), lambdaContext());
    await handler(registerEvent(JSON.stringify({ name: secrets[3], extra: true }), headers), lambdaContext());
    await handler(registerEvent(`{"name": "${secrets[3]}"`, headers), lambdaContext());

    // Assess
    const output = logOutput();
    expect(
      logLines()
        .filter((line) => line.message === 'request')
        .map((line) => line.status),
    ).toEqual([201, 422, 400]);
    for (const secret of secrets) {
      expect(output).not.toContain(secret);
    }
  });
});

describe('creating a group handler', () => {
  it('fails when an operation of the group has no implementation', () => {
    // Prepare: a cast gets past the types, as a hand-edited handler might.
    const incomplete = { registerOrg: implementations.registerOrg } as unknown as typeof implementations;

    // Act
    const create = () => createGroupHandler(contracts, incomplete, { bodies: jsonBodies });

    // Assess
    expect(create).toThrow(/No implementation of listOrgs \(GET \/partners\/\{partner_org_id\}\/orgs\)/);
  });
  it('fails when an operation reads a body and the group was given no body parsers', () => {
    // Act
    const create = () => createGroupHandler(contracts, implementations);

    // Assess
    expect(create).toThrow(
      /registerOrg \(POST\) reads a JSON body: createGroupHandler needs the bodies option/,
    );
  });

  it('needs no body parsers for a group of GET operations', () => {
    // Act
    const create = () =>
      createGroupHandler(openApiOperations, { getOpenApiDocument: async () => ({ openapi: '3.1.0' }) });

    // Assess
    expect(create).not.toThrow();
  });
});

describe('answering errors in the format an operation states', () => {
  /** A page for browsers and an OAuth endpoint: public, as the sign-in pages and the token endpoint are. */
  const formats = {
    showPage: {
      method: 'GET',
      path: '/oauth/page',
      group: 'oauth-sign-in',
      summary: 'A page',
      tag: 'OAuth',
      public: true,
      html: true,
      query: z.strictObject({ request_id: z.string().min(1) }),
      responses: { 200: null },
    },
    exchange: {
      method: 'POST',
      path: '/oauth/exchange',
      group: 'oauth-sign-in',
      summary: 'An OAuth endpoint',
      tag: 'OAuth',
      public: true,
      oauth: true,
      bodyMediaType: 'application/x-www-form-urlencoded',
      body: z.strictObject({ grant_type: z.literal('authorization_code') }),
      clientErrorBody: z.object({ error: z.string() }),
      responses: { 200: z.object({}) },
    },
  } satisfies OperationList;
  const formatImplementations: Implementations<typeof formats> = {
    showPage: async () => ({}),
    exchange: async () => ({}),
  };
  const answering = () =>
    createGroupHandler(formats, formatImplementations, {
      bodies: formBodies,
      errors: { page: pageErrorAnswer, oauth: oauthErrorAnswer },
    });

  it('answers a page operation refused by its schemas with an error page, never framed', async () => {
    // Act
    const response = (await answering()(
      proxyEvent({ resource: '/oauth/page', queryStringParameters: {} }),
      lambdaContext(),
    )) as APIGatewayProxyResult;

    // Assess
    expect(response.statusCode).toBe(422);
    expect(response.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers?.['x-frame-options']).toBe('DENY');
    expect(response.body).toContain('<p role="alert">');
  });

  it("answers an OAuth endpoint's refused request as RFC 6749's invalid_request, not cached", async () => {
    // Act
    const response = (await answering()(
      proxyEvent({
        resource: '/oauth/exchange',
        httpMethod: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&extra=1',
      }),
      lambdaContext(),
    )) as APIGatewayProxyResult;

    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.headers?.['cache-control']).toBe('no-store');
    expect(JSON.parse(response.body)).toMatchObject({ code: 400, error: 'invalid_request' });
  });

  it('fails to load when an operation answers with pages and the group was given no page answer', () => {
    // Act
    const create = () =>
      createGroupHandler(formats, formatImplementations, {
        bodies: formBodies,
        errors: { oauth: oauthErrorAnswer },
      });

    // Assess
    expect(create).toThrow(/showPage answers its errors with pages: createGroupHandler needs errors.page/);
  });

  it('fails to load when an operation answers OAuth errors and the group was given no OAuth answer', () => {
    // Act
    const create = () =>
      createGroupHandler(formats, formatImplementations, {
        bodies: formBodies,
        errors: { page: pageErrorAnswer },
      });

    // Assess
    expect(create).toThrow(
      /exchange answers its errors as OAuth errors: createGroupHandler needs errors.oauth/,
    );
  });
});
