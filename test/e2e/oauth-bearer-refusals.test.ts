import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { type AccessTokenClaims, issueAccessToken } from '../../shared/auth/access-tokens';
import type { Signer } from '../../shared/auth/signers/signer';
import { demoAccessToken } from '../support/oauth-person';
import { createTestSigner } from '../support/test-signer';

/**
 * The API's refusals of Bearer tokens over HTTP, against the local server in this process (its
 * authorizer, group handlers and local signer): a genuine token on another org, a token without
 * the operation's scope, and tokens the server did not sign as they stand (tampered, signed by a
 * foreign key, `alg: none`).
 */

let api: LocalApi;
let dir: string;
/** A genuine `plans:read` access token of the demo admin on the demo customer org. */
let genuine: string;
let claims: AccessTokenClaims;
let foreignSigner: Signer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-bearer-refusals-'));
  api = await startLocalApi(
    { ...readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }) },
    { seedUsage: true },
  );
  genuine = await demoAccessToken({ baseUrl: api.baseUrl, dir }, 'plans:read');
  claims = JSON.parse(Buffer.from(genuine.split('.')[1] as string, 'base64url').toString('utf8'));
  foreignSigner = await createTestSigner();
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

function planUrl(orgId: string): string {
  return `${api.baseUrl}/v1/org/${orgId}/commitment-plans/recommended?provider=aws`;
}

function withBearer(token: string, init: RequestInit = {}): RequestInit {
  return {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
  };
}

function segment(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

const challenge = () => `Bearer resource_metadata="${api.baseUrl}/.well-known/oauth-protected-resource"`;

describe('Bearer tokens the API refuses over HTTP', () => {
  it('reads the demo org with a genuine token, and answers another org as the API answers another tenant', async () => {
    // Act
    const own = await fetch(planUrl(api.credentials.org.org_id), withBearer(genuine));
    const partners = await fetch(planUrl(api.credentials.partner.org_id), withBearer(genuine));
    const unknown = await fetch(planUrl(randomUUID()), withBearer(genuine));
    const byKey = await fetch(planUrl(api.credentials.partner.org_id), {
      headers: { 'x-api-key': api.credentials.org.api_key },
    });

    // Assess
    expect(own.status).toBe(200);
    // Another org is not found, as for the org's API key: the answer tells nothing of its existence.
    expect(partners.status).toBe(404);
    expect(byKey.status).toBe(404);
    expect(unknown.status).toBe(404);
  });

  it('answers a token without the operation’s scope 403 insufficient_scope, naming the scope', async () => {
    // Act: applying a plan needs plans:apply; the token carries plans:read only
    const response = await fetch(
      `${api.baseUrl}/v1/org/${api.credentials.org.org_id}/commitment-plans/${randomUUID()}/apply`,
      withBearer(genuine, { method: 'POST', headers: { 'idempotency-key': randomUUID() } }),
    );

    // Assess
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="plans:apply"',
    );
  });

  it('answers 401 with the metadata challenge to a tampered token, a foreign key’s and an unsigned one', async () => {
    // Prepare
    const [header, , signature] = genuine.split('.');
    const widened = segment({ ...claims, scope: 'plans:read plans:apply' });
    const tampered = `${header}.${widened}.${signature}`;
    const foreign = await issueAccessToken(foreignSigner, claims);
    // A foreign signature under the server's own kid: the key is known, the signature is not its.
    const foreignUnderOurKid = `${header}.${foreign.split('.')[1]}.${foreign.split('.')[2]}`;
    const unsigned = `${segment({ alg: 'none', typ: 'at+jwt' })}.${segment(claims)}.`;
    const presented = { tampered, foreign, foreignUnderOurKid, unsigned };

    // Act
    const answers = await Promise.all(
      Object.entries(presented).map(async ([name, jwt]) => {
        const response = await fetch(planUrl(api.credentials.org.org_id), withBearer(jwt));
        return [name, response.status, response.headers.get('www-authenticate')] as const;
      }),
    );

    // Assess
    expect(answers).toEqual(Object.keys(presented).map((name) => [name, 401, challenge()]));
  });
});
