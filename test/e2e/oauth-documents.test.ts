import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api-client';
import { type LocalServer, startLocalServer } from '../support/local-server';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
});

afterAll(async () => {
  await server?.stop();
});

describe('the OAuth documents of the local server', () => {
  it('serves the JWKS publicly, cacheable 5 minutes, with public P-256 members only', async () => {
    // Act
    const response = await callApi(server.baseUrl, '/.well-known/jwks.json');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('max-age=300');
    const { keys } = response.body as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0] ?? {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it("serves the protected-resource metadata with the server's base URL as resource and authorization server", async () => {
    // Act
    const response = await callApi(server.baseUrl, '/.well-known/oauth-protected-resource');

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      resource: server.baseUrl,
      authorization_servers: [server.baseUrl],
      bearer_methods_supported: ['header'],
    });
  });

  it('answers a request without credentials, or with a bad Bearer token, 401 with a challenge naming the metadata', async () => {
    // Prepare
    const path = `/v1/org/${server.credentials.org.org_id}/commitment-plans/default?provider=aws`;

    // Act
    const missing = await callApi(server.baseUrl, path);
    const forged = await callApi(server.baseUrl, path, { headers: { authorization: 'Bearer a.b.c' } });

    // Assess
    for (const response of [missing, forged]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource"`,
      );
    }
  });
});
