import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { type Answer, itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { repositoryRoot } from '../support/entry-point-process';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { settingsPath } from '../support/partner-tenants';

/**
 * What every answer of the real local server (`npm start`, orgs only) carries whatever the route:
 * a request id, echoed when the caller's is a plain token; and the OpenAPI document it serves.
 */

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
});

afterAll(async () => {
  await server?.stop();
});

/** The seeded demo customer org and its admin's key. */
const customer = () => ({ orgId: server.credentials.org.org_id, apiKey: server.credentials.org.api_key });

/** Every answer to this file's requests, checked against the OpenAPI document by the last test. */
const answered: Answer[] = [];

async function api(path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const response = await callApi(server.baseUrl, path, request);
  answered.push({
    method: request.method ?? 'GET',
    path: new URL(path, server.baseUrl).pathname,
    status: response.status,
  });
  return response;
}

function patchSettings(orgId: string, apiKey: string, json: unknown): Promise<ApiResponse> {
  return api(settingsPath(orgId), { method: 'PATCH', apiKey, json });
}

describe('request ids', () => {
  const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('puts a request id on every response, successes and errors, from handlers and the server', async () => {
    // Act
    const responses = await Promise.all([
      api('/openapi.json'),
      patchSettings(customer().orgId, customer().apiKey, {}),
      patchSettings(customer().orgId, customer().apiKey, { aws_marketplace_offer_link: 'ftp://example.com' }),
      api(settingsPath(customer().orgId), { method: 'PATCH', json: {} }),
      api('/no/such/route'),
      api(settingsPath(customer().orgId), { method: 'DELETE', apiKey: customer().apiKey }),
    ]);

    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200, 422, 401, 404, 405]);
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(uuidPattern);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("echoes a caller's plain-token request id and replaces one that is not", async () => {
    // Act
    const echoed = await Promise.all([
      api(settingsPath(customer().orgId), {
        method: 'PATCH',
        apiKey: customer().apiKey,
        json: {},
        headers: { 'x-request-id': 'e2e-trace.0001' },
      }),
      api('/no/such/route', { headers: { 'x-request-id': 'e2e-trace.0002' } }),
      api(settingsPath(customer().orgId), {
        method: 'PATCH',
        json: {},
        headers: { 'x-request-id': 'e2e-trace.0003' },
      }),
    ]);
    const replaced = await api('/openapi.json', { headers: { 'x-request-id': 'not a plain token' } });

    // Assess
    expect(echoed.map((response) => [response.status, response.headers.get('x-request-id')])).toEqual([
      [200, 'e2e-trace.0001'],
      [404, 'e2e-trace.0002'],
      [401, 'e2e-trace.0003'],
    ]);
    expect(replaced.headers.get('x-request-id')).toMatch(uuidPattern);
  });
});

describe('the OpenAPI document', () => {
  it("is served publicly, without a key, as docs/openapi.json with this server's base URL", async () => {
    // Prepare
    const published = JSON.parse(await readFile(join(repositoryRoot, 'docs/openapi.json'), 'utf8'));

    // Act
    const response = await api('/openapi.json');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({
      ...published,
      servers: [{ url: server.baseUrl, description: 'This deployment' }],
    });
    expect(published.servers).toEqual([
      { url: 'http://127.0.0.1:3000', description: 'The local server (npm start)' },
    ]);
  });

  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(answered, 1);
});
