import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../support/api-client';
import { useSeededApi } from '../support/seeded-api';

/**
 * Issue 24: an Idempotency-Key is about the request the route serves, not the bytes of its path.
 * The routes match plan ids without case, so `/plans/<ID>` and `/plans/<id>` are one request: the
 * repeat with the other spelling replays the first answer (and buys nothing twice) instead of
 * answering 422 "used with another request".
 */

const seeded = useSeededApi();
const call = (path: string, request: ApiRequest = {}): Promise<ApiResponse> =>
  seeded.call(path, { apiKey: seeded.adminKey, ...request });

describe('Idempotency-Key and the spelling of a plan id', () => {
  it('replays the first apply when the repeat spells the plan id in upper case', async () => {
    // Prepare
    const recommended = await call(`${seeded.plansPath}/recommended?provider=aws`);
    expect(recommended.status).toBe(200);
    const planId: string = recommended.body.id;
    const headers = { 'idempotency-key': `apply-case-${planId}` };

    // Act
    const first = await call(`${seeded.plansPath}/${planId}/apply`, { method: 'POST', headers });
    const repeat = await call(`${seeded.plansPath}/${planId.toUpperCase()}/apply`, {
      method: 'POST',
      headers,
    });

    // Assess
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
  });
});
