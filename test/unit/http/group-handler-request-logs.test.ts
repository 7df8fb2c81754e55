import { describe, expect, it } from 'vitest';
import { capturedLogs, jsonOf, partnerOrgsHandler, registerEvent } from '../../support/partner-orgs-group';
import { lambdaContext } from './proxy-event';

describe('group handler: request ids and request logs', () => {
  const logs = capturedLogs();

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

  it('logs one line per request with method, resource, status, latency and request id', async () => {
    // Prepare
    const handler = partnerOrgsHandler();

    // Act
    await handler(registerEvent(JSON.stringify({ name: 'Acme' })), lambdaContext());

    // Assess
    const requestLines = logs.lines().filter((line) => line.message === 'request');
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
    const operationLine = logs.lines().find((line) => line.message === 'org registered');
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
    const output = logs.output();
    expect(
      logs
        .lines()
        .filter((line) => line.message === 'request')
        .map((line) => line.status),
    ).toEqual([201, 422, 400]);
    for (const secret of secrets) {
      expect(output).not.toContain(secret);
    }
  });
});
