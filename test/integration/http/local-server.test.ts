import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createLocalServer, type LocalAuthorization } from '../../../local/http/local-server';
import type { FunctionGroup } from '../../../shared/contract/operation-contract';
import type { Route } from '../../../shared/contract/operations';
import { openApiOperations } from '../../../shared/contract/operations/openapi';
import type { Principal } from '../../../shared/domain/principal';
import { createGroupHandler, type ProxyHandler } from '../../../shared/http/group-handler';

const routes: Route[] = [
  {
    method: 'GET',
    path: '/openapi.json',
    group: 'openapi',
    operationId: 'getOpenApiDocument',
    withoutAuthorizer: true,
  },
  {
    method: 'GET',
    path: '/v2/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    operationId: 'listChildOrgs',
    withoutAuthorizer: false,
  },
  {
    method: 'POST',
    path: '/v2/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    operationId: 'registerChildOrg',
    withoutAuthorizer: false,
  },
  {
    method: 'PATCH',
    path: '/v2/org/{org_id}/partners',
    group: 'partner-settings',
    operationId: 'updatePartnerSettings',
    withoutAuthorizer: false,
  },
];

const partner: Principal = { kind: 'partner', orgId: 'partner-1', scopes: ['*'] };

interface Harness {
  readonly baseUrl: string;
  readonly events: APIGatewayProxyEvent[];
  readonly contexts: Context[];
  readonly loads: FunctionGroup[];
  readonly authorizations: APIGatewayProxyEvent[];
}

/** Records the event and context it was called with and answers them back. */
function recordingHandler(harness: Harness): ProxyHandler {
  return async (event, context) => {
    harness.events.push(event);
    harness.contexts.push(context);
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'x-single': 'one', 'x-both': 'from-headers' },
      multiValueHeaders: { 'x-multi': ['a', 'b'], 'x-both': ['from-multi'] },
      body: JSON.stringify({ resource: event.resource }),
    };
  };
}

describe('local server', () => {
  let server: Server;
  let harness: Harness;
  let stdout: MockInstance<typeof process.stdout.write>;
  let stderr: MockInstance<typeof process.stderr.write>;

  beforeEach(async () => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const events: APIGatewayProxyEvent[] = [];
    const recorded = { events, contexts: [], loads: [], authorizations: [] };
    server = createLocalServer({
      routes,
      logger: new Logger({ serviceName: 'local-server-test' }),
      loadHandler: async (group) => {
        harness.loads.push(group);
        if (group === 'partner-settings') {
          return async () => {
            throw new Error('handler crashed with internal detail');
          };
        }
        if (group === 'openapi') {
          return createGroupHandler(openApiOperations, {
            getOpenApiDocument: async () => ({ openapi: '3.1.0' }),
          });
        }
        return recordingHandler(harness);
      },
      authorize: async (event): Promise<LocalAuthorization> => {
        harness.authorizations.push(event);
        const key = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'x-api-key')?.[1];
        return key === 'good-key' ? { principal: JSON.stringify(partner) } : 'unauthorized';
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    harness = { baseUrl: `http://127.0.0.1:${port}`, ...recorded };
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    stdout.mockRestore();
    stderr.mockRestore();
  });

  const authenticated = { 'x-api-key': 'good-key' };

  it('answers 404 with the error body for a path no template matches', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/v2/nothing-here`, { headers: authenticated });

    // Assess
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({
      code: 404,
      status: 'Not Found',
      message: 'No such resource.',
      errors: {},
    });
    expect(harness.loads).toEqual([]);
  });

  it('answers 405 with an Allow header for a known path and a wrong method', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/v2/partners/p1/orgs`, {
      method: 'DELETE',
      headers: authenticated,
    });

    // Assess
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await response.json()).toMatchObject({ code: 405, status: 'Method Not Allowed', errors: {} });
  });

  it('answers 405 to HEAD and OPTIONS, which no route declares', async () => {
    // Act
    const head = await fetch(`${harness.baseUrl}/openapi.json`, { method: 'HEAD' });
    const options = await fetch(`${harness.baseUrl}/openapi.json`, { method: 'OPTIONS' });

    // Assess
    expect(head.status).toBe(405);
    expect(options.status).toBe(405);
    expect(options.headers.get('allow')).toBe('GET');
  });

  it('answers 401 with the error body when the authorizer refuses, without calling the handler', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/v2/partners/p1/orgs`, {
      headers: { 'x-api-key': 'bad-key' },
    });

    // Assess
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      code: 401,
      status: 'Unauthorized',
      message: 'Missing or invalid credentials.',
      errors: {},
    });
    expect(harness.events).toEqual([]);
  });

  it('serves a public route through a group handler without asking the authorizer', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/openapi.json`, {
      headers: { 'x-request-id': 'trace-1' },
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('trace-1');
    expect(await response.json()).toEqual({ openapi: '3.1.0' });
    expect(harness.authorizations).toEqual([]);
  });

  it('builds a REST v1 proxy event with the template, decoded path parameters and the principal', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/v2/partners/acme%20%2F%20co/orgs`, {
      headers: { ...authenticated, 'X-Custom': 'yes' },
    });

    // Assess
    expect(response.status).toBe(200);
    const [event] = harness.events;
    expect(event).toMatchObject({
      resource: '/v2/partners/{partner_org_id}/orgs',
      path: '/v2/partners/acme%20%2F%20co/orgs',
      httpMethod: 'GET',
      pathParameters: { partner_org_id: 'acme / co' },
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {
        resourcePath: '/v2/partners/{partner_org_id}/orgs',
        httpMethod: 'GET',
        stage: 'local',
        path: '/v2/partners/acme%20%2F%20co/orgs',
        identity: { sourceIp: '127.0.0.1' },
        authorizer: { principal: JSON.stringify(partner) },
      },
    });
    // Header names keep the client's spelling, as API Gateway passes them.
    expect(event?.headers['X-Custom']).toBe('yes');
    expect(event?.multiValueHeaders['X-Custom']).toEqual(['yes']);
    expect(event?.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(harness.contexts[0]?.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(harness.contexts[0]?.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('passes repeated query keys in the multi-value view and the last value in the single view', async () => {
    // Act
    await fetch(`${harness.baseUrl}/v2/partners/p1/orgs?ids=a&ids=b%20c&page=2`, { headers: authenticated });

    // Assess
    const [event] = harness.events;
    expect(event?.multiValueQueryStringParameters).toEqual({ ids: ['a', 'b c'], page: ['2'] });
    expect(event?.queryStringParameters).toEqual({ ids: 'b c', page: '2' });
  });

  it('passes the request body as a string', async () => {
    // Act
    await fetch(`${harness.baseUrl}/v2/partners/p1/orgs`, {
      method: 'POST',
      headers: { ...authenticated, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Acmé' }),
    });

    // Assess
    const [event] = harness.events;
    expect(event?.body).toBe('{"name":"Acmé"}');
    expect(event?.isBase64Encoded).toBe(false);
  });

  it('writes the handler result, multi-value headers winning over single ones', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/v2/partners/p1/orgs`, { headers: authenticated });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('x-single')).toBe('one');
    expect(response.headers.get('x-multi')).toBe('a, b');
    expect(response.headers.get('x-both')).toBe('from-multi');
    expect(await response.json()).toEqual({ resource: '/v2/partners/{partner_org_id}/orgs' });
  });

  it('answers 413 for a body over 256 KiB without calling the authorizer or the handler', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/v2/partners/p1/orgs`, {
      method: 'POST',
      headers: { ...authenticated, 'content-type': 'application/json' },
      body: 'x'.repeat(262_145),
    });

    // Assess
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 413, status: 'Payload Too Large', errors: {} });
    expect(harness.authorizations).toEqual([]);
    expect(harness.events).toEqual([]);
  });

  it('answers 413 for a streamed body without a length once it passes 256 KiB', async () => {
    // Prepare
    const chunk = new Uint8Array(64 * 1024).fill(120);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Five chunks: 320 KiB in all, more than the limit.
        if (sent === 5) {
          controller.close();
          return;
        }
        sent += 1;
        controller.enqueue(chunk);
      },
    });

    // Act
    const response = await fetch(`${harness.baseUrl}/v2/partners/p1/orgs`, {
      method: 'POST',
      headers: { ...authenticated, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);

    // Assess
    expect(response.status).toBe(413);
    expect(harness.events).toEqual([]);
  });

  it('accepts a body of exactly 256 KiB', async () => {
    // Act
    const response = await fetch(`${harness.baseUrl}/v2/partners/p1/orgs`, {
      method: 'POST',
      headers: { ...authenticated, 'content-type': 'application/json' },
      body: 'x'.repeat(262_144),
    });

    // Assess
    expect(response.status).toBe(200);
    expect(harness.events[0]?.body).toHaveLength(262_144);
  });

  it('answers a failing handler with a generic 500 and loads each group once', async () => {
    // Act
    const first = await fetch(`${harness.baseUrl}/v2/org/o1/partners`, {
      method: 'PATCH',
      headers: authenticated,
    });
    const second = await fetch(`${harness.baseUrl}/v2/org/o1/partners`, {
      method: 'PATCH',
      headers: authenticated,
    });

    // Assess
    expect(first.status).toBe(500);
    const body = await first.text();
    expect(JSON.parse(body)).toMatchObject({
      code: 500,
      message: 'The service failed to handle the request.',
    });
    expect(body).not.toContain('internal detail');
    expect(second.status).toBe(500);
    expect(harness.loads).toEqual(['partner-settings']);
  });
});
