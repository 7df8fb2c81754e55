import { describe, expect, it } from 'vitest';
import {
  admin,
  capturedLogs,
  jsonOf,
  partnerOrgsHandler,
  registerEvent,
} from '../../support/partner-orgs-group';
import { lambdaContext, proxyEvent } from './proxy-event';

describe('group handler: request bodies, queries and their refusals', () => {
  // The logger's lines are kept off the test output.
  capturedLogs();

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
});
