import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { type InProcessApi, startInProcessApi } from '../support/in-process-api';

/**
 * Issue 24: an Idempotency-Key is about the request the route serves, not the bytes of its path.
 * The routes match plan ids without case, so `/plans/<ID>` and `/plans/<id>` are one request: the
 * repeat with the other spelling replays the first answer (and buys nothing twice) instead of
 * answering 422 "used with another request".
 */

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let server: InProcessApi;
let baseUrl: string;
let orgId: string;
let adminKey: string;

beforeAll(async () => {
  server = await startInProcessApi();
  const { credentials } = server.api;
  baseUrl = credentials.base_url;
  orgId = credentials.org.org_id;
  adminKey = credentials.org.api_key;
});

afterAll(async () => {
  await server?.stop();
});

const plansPath = () => `/v1/org/${orgId}/commitment-plans`;
const call = (path: string, request: ApiRequest = {}): Promise<ApiResponse> =>
  callApi(baseUrl, path, { apiKey: adminKey, ...request });

describe('Idempotency-Key and the spelling of a plan id', () => {
  it('replays the first apply when the repeat spells the plan id in upper case', async () => {
    // Prepare
    const recommended = await call(`${plansPath()}/recommended?provider=aws`);
    expect(recommended.status).toBe(200);
    const planId: string = recommended.body.id;
    const headers = { 'idempotency-key': `apply-case-${planId}` };

    // Act
    const first = await call(`${plansPath()}/${planId}/apply`, { method: 'POST', headers });
    const repeat = await call(`${plansPath()}/${planId.toUpperCase()}/apply`, { method: 'POST', headers });

    // Assess
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
  });
});
