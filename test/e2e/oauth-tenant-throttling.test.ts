import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { type AccessTokenClaims, issueAccessToken } from '../../shared/auth/access-tokens';
import { createLocalSigner } from '../../shared/auth/signers/local-signer';
import { demoAccessToken } from '../support/oauth-person';

/**
 * Bearer requests are throttled per OAuth client *and* org (docs/http.md, "Throttling"), over HTTP
 * against the local server in this process: one tenant's burst through the shared public demo
 * client must not get another tenant 429, while the bursting tenant is held back with
 * `Retry-After`. The limits: a burst of 3 per window of 3 / 0.001 = 3,000 s, so no window ends
 * during the test.
 */

const throttle = { rateLimit: 0.001, burstLimit: 3 };
const partnerMember = 'analyst@demo-partner.example';

let api: LocalApi;
let dir: string;
/** The demo admin's token on the demo customer org, through the whole flow. */
let customerToken: string;
/** A partner member's token through the same client, signed with the server's own key. */
let partnerToken: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-tenant-throttling-'));
  api = await startLocalApi(
    {
      ...readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }),
      tenantThrottle: throttle,
    },
    { seedUsage: false },
  );
  customerToken = await demoAccessToken({ baseUrl: api.baseUrl, dir }, 'plans:read');
  const claims: AccessTokenClaims = JSON.parse(
    Buffer.from(customerToken.split('.')[1] as string, 'base64url').toString('utf8'),
  );
  const now = new Date().toISOString();
  await api.runtime.ctx.repos.memberships.put({
    orgId: api.credentials.partner.org_id,
    email: partnerMember,
    role: 'admin',
    createdAt: now,
    updatedAt: now,
  });
  // The token endpoint would issue the same claims to the partner member after its own consent.
  partnerToken = await issueAccessToken(createLocalSigner(dir), {
    ...claims,
    sub: partnerMember,
    org_id: api.credentials.partner.org_id,
    jti: randomUUID(),
  });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

function plans(orgId: string, credentials: { bearer?: string; apiKey?: string }): Promise<Response> {
  return fetch(`${api.baseUrl}/v1/org/${orgId}/commitment-plans/recommended?provider=aws`, {
    headers: credentials.bearer
      ? { authorization: `Bearer ${credentials.bearer}` }
      : { 'x-api-key': credentials.apiKey as string },
  });
}

describe('Bearer throttling per OAuth client and org', () => {
  it("holds back one tenant's burst through the shared client, and not another tenant's requests", async () => {
    // Prepare
    const customer = api.credentials.org.org_id;
    const partner = api.credentials.partner.org_id;

    // Act: the customer's burst of 3 and a fourth, then the partner through the same client.
    const burst = [];
    for (let request = 0; request < 3; request += 1) {
      burst.push((await plans(customer, { bearer: customerToken })).status);
    }
    const over = await plans(customer, { bearer: customerToken });
    const otherTenant = await plans(partner, { bearer: partnerToken });
    // An API key of the customer's own: API Gateway's per-key buckets, untouched by Bearer counts.
    const byKey = await plans(customer, { apiKey: api.credentials.org.api_key });

    // Assess: no plan yet answers 204 (docs/plans-api.md), not 429.
    expect(burst.every((status) => status !== 429)).toBe(true);
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({
      code: 429,
      status: 'Too Many Requests',
      message: expect.stringContaining('OAuth client'),
      errors: {},
    });
    // Retry-After: the seconds left of the 3,000 s window, at least 1.
    expect(over.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(3000);
    expect(otherTenant.status).not.toBe(429);
    expect(byKey.status).not.toBe(429);
  });

  it("counts a request naming another org in its path in the caller's own org, not the named one's", async () => {
    // Prepare: a fresh tenant bucket of the partner's through the same client.
    const partner = api.credentials.partner.org_id;
    const customer = api.credentials.org.org_id;

    // Act: the partner member's requests at the customer's org (refused: not its org) ...
    const aimed = [];
    for (let request = 0; request < 3; request += 1) {
      aimed.push((await plans(customer, { bearer: partnerToken })).status);
    }
    const own = await plans(partner, { bearer: partnerToken });

    // Assess: ... spend the partner's own budget (1 earlier + 3 here), not the customer's.
    expect(aimed.slice(0, 2)).toEqual([404, 404]);
    expect(aimed[2]).toBe(429);
    expect(own.status).toBe(429);
  });
});
