import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api-client';
import { type LocalServer, startLocalServer } from '../support/local-server';

/** The per-key limits of this server: a burst of 3, then one request every 10 s. */
const throttle = { rateLimit: 0.1, burstLimit: 3 };

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true, tenantThrottle: throttle });
});

afterAll(async () => {
  await server?.stop();
});

describe('per-key throttling on the local server', () => {
  it("answers 429 in the error body past a key's burst, while other keys and public routes go on", async () => {
    // Prepare
    const { partner, org } = server.credentials;
    const recommended = (orgId: string) =>
      `/v2/org/${orgId}/partners/purchase-plans-v2/recommended?provider=aws`;
    const asPartner = () => callApi(server.baseUrl, recommended(partner.org_id), { apiKey: partner.api_key });

    // Act: the burst, one more, then another key and a public route.
    const burst = [await asPartner(), await asPartner(), await asPartner()];
    const over = await callApi(server.baseUrl, recommended(partner.org_id), {
      apiKey: partner.api_key,
      headers: { 'x-request-id': 'throttled-1' },
    });
    const otherKey = await callApi(server.baseUrl, recommended(org.org_id), { apiKey: org.api_key });
    const publicRoute = await callApi(server.baseUrl, '/openapi.json');

    // Assess
    // No plan yet: 204 (docs/plans-api.md).
    expect(burst.map((response) => response.status)).toEqual([204, 204, 204]);
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toBe('application/json');
    expect(over.headers.get('x-request-id')).toBe('throttled-1');
    // As API Gateway's THROTTLED answer: a fixed Retry-After (lib/constructs/error-responses.ts).
    expect(over.headers.get('retry-after')).toBe('1');
    expect(over.body).toEqual({
      code: 429,
      status: 'Too Many Requests',
      message: expect.any(String),
      errors: {},
    });
    expect(otherKey.status).toBe(204);
    expect(publicRoute.status).toBe(200);
  });

  it('refuses bad credentials with 401 before any throttling', async () => {
    // Act
    const responses = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        callApi(
          server.baseUrl,
          `/v1/org/${server.credentials.org.org_id}/commitment-plans/default?provider=aws`,
          {
            apiKey: 'cpk_0000000000000000_0000000000000000000000000000000000000000',
          },
        ),
      ),
    );

    // Assess
    expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 401, 401]);
  });
});
