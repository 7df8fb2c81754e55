import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonWebKeySet } from '../../../shared/app/oauth-metadata';
import {
  AccessTokenRefusedError,
  createAccessTokenVerifier,
} from '../../../shared/auth/access-token-verification';
import { type AccessTokenClaims, issueAccessToken } from '../../../shared/auth/access-tokens';
import { publishedKeys } from '../../../shared/auth/published-keys';
import { publicJwkOf } from '../../../shared/auth/signers/public-jwk';
import type { Signer } from '../../../shared/auth/signers/signer';

const issuer = 'https://api.example.com';
const nowSeconds = Math.floor(Date.now() / 1000);

function memorySigner(): Signer {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicJwkOf(privateKey);
  return {
    signingKey: async () => ({
      kid: (await jwk).kid,
      sign: async (input) =>
        new Uint8Array(sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
    }),
    publicKeys: async () => [await jwk],
  };
}

const claims: AccessTokenClaims = {
  iss: issuer,
  sub: 'ada@example.com',
  aud: issuer,
  org_id: 'org-1',
  scope: 'plans:read',
  client_id: 'client-1',
  jti: 'jti-1',
  fam: 'family-1',
  iat: nowSeconds - 60,
  exp: nowSeconds + 840,
};

/** A JWKS endpoint on loopback that answers what `answer` says, and counts the reads. */
interface JwksEndpoint {
  readonly url: string;
  reads: number;
  answer: { status: number; body: string } | 'hang';
}

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
  servers = [];
});

async function jwksEndpoint(body: unknown): Promise<JwksEndpoint> {
  const endpoint = { url: '', reads: 0, answer: { status: 200, body: JSON.stringify(body) } } as JwksEndpoint;
  const server = createServer((request, response) => {
    endpoint.reads += 1;
    if (request.url !== '/.well-known/jwks.json' || endpoint.answer === 'hang') {
      if (endpoint.answer !== 'hang') response.writeHead(404).end();
      return;
    }
    response
      .writeHead(endpoint.answer.status, { 'content-type': 'application/json' })
      .end(endpoint.answer.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(endpoint, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
  });
}

function verifierOn(url: string, timeoutMs?: number) {
  return createAccessTokenVerifier({
    keys: publishedKeys({ url, ...(timeoutMs ? { timeoutMs } : {}) }),
    issuer,
    audience: issuer,
  });
}

describe('the published keys (the JWKS read over HTTP)', () => {
  it('verify a token signed by the key the JWKS publishes, reading the JWKS once for many tokens', async () => {
    // Prepare
    const signer = memorySigner();
    const endpoint = await jwksEndpoint(await jsonWebKeySet(signer));
    const verifier = verifierOn(endpoint.url);
    const token = await issueAccessToken(signer, claims);

    // Act
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);

    // Assess
    expect(first).toEqual(claims);
    expect(second).toEqual(claims);
    expect(endpoint.reads).toBe(1);
  });

  it('use only EC P-256 signing keys: other entries of the set are skipped, not trusted', async () => {
    // Prepare: our key published as an encryption key, beside an RSA key and garbage; the
    // token's key is not among the usable ones.
    const signer = memorySigner();
    const [ours] = await signer.publicKeys();
    const endpoint = await jwksEndpoint({
      keys: [{ ...ours, use: 'enc' }, { kty: 'RSA', n: 'AQAB', e: 'AQAB', kid: 'rsa-1' }, 'not a key', null],
    });
    const token = await issueAccessToken(signer, claims);

    // Act
    const refusal = await verifierOn(endpoint.url)
      .verify(token)
      .catch((error) => error);

    // Assess
    expect(refusal).toBeInstanceOf(AccessTokenRefusedError);
    expect(refusal.reason).toBe('unknown_key');
  });

  it('make a JWKS that answers an error or no key set a failure, never an empty set of keys', async () => {
    // Prepare
    const signer = memorySigner();
    const token = await issueAccessToken(signer, claims);
    const failing = await jwksEndpoint({});
    failing.answer = { status: 503, body: '{"message":"unavailable"}' };
    const notAKeySet = await jwksEndpoint({ keys: 'none' });

    // Act
    const unavailable = await verifierOn(failing.url)
      .verify(token)
      .catch((error) => error);
    const malformed = await verifierOn(notAKeySet.url)
      .verify(token)
      .catch((error) => error);

    // Assess: errors of the service, not refusals of the token (the authorizer answers 500, not 401)
    expect(unavailable).not.toBeInstanceOf(AccessTokenRefusedError);
    expect(unavailable.message).toContain('answered 503');
    expect(malformed).not.toBeInstanceOf(AccessTokenRefusedError);
    expect(malformed.message).toContain('is not a JSON Web Key Set');
  });

  it('give up on a JWKS that does not answer within the timeout', async () => {
    // Prepare
    const signer = memorySigner();
    const endpoint = await jwksEndpoint({});
    endpoint.answer = 'hang';
    const token = await issueAccessToken(signer, claims);

    // Act
    const failure = await verifierOn(endpoint.url, 200)
      .verify(token)
      .catch((error) => error);

    // Assess
    expect(failure).not.toBeInstanceOf(AccessTokenRefusedError);
    expect(failure.name).toBe('TimeoutError');
  });
});
