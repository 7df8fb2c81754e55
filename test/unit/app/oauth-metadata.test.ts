import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  authorizationServerMetadata,
  jsonWebKeySet,
  protectedResourceMetadata,
} from '../../../shared/app/oauth-metadata';
import { publicJwkOf } from '../../../shared/auth/signers/public-jwk';
import * as contract from '../../../shared/contract/oauth';

const issuer = 'https://api.example.com';

describe('the OAuth documents', () => {
  it('describes the authorization server under the issuer, byte for byte, with every field clients look for', () => {
    // Act
    const metadata = authorizationServerMetadata(issuer);

    // Assess
    expect(contract.authorizationServerMetadata.parse(metadata)).toEqual(metadata);
    expect(metadata).toEqual({
      issuer,
      authorization_endpoint: 'https://api.example.com/oauth/authorize',
      token_endpoint: 'https://api.example.com/oauth/token',
      jwks_uri: 'https://api.example.com/.well-known/jwks.json',
      registration_endpoint: 'https://api.example.com/oauth/register',
      revocation_endpoint: 'https://api.example.com/oauth/revoke',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      scopes_supported: ['plans:read', 'plans:apply', 'org:write', 'partner:write'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: 'https://api.example.com/openapi.json',
    });
  });

  it('names the API as its own resource and authorization server (RFC 9728), Bearer tokens in the header only', () => {
    // Act
    const metadata = protectedResourceMetadata(issuer);

    // Assess
    expect(contract.protectedResourceMetadata.parse(metadata)).toEqual(metadata);
    expect(metadata).toMatchObject({
      resource: issuer,
      authorization_servers: [issuer],
      scopes_supported: ['plans:read', 'plans:apply', 'org:write', 'partner:write'],
      bearer_methods_supported: ['header'],
    });
  });

  it('publishes public members only, even from a key source that hands over a private key', async () => {
    // Prepare
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = await publicJwkOf(privateKey);
    const leaky = {
      publicKeys: async () => [{ ...jwk, d: privateKey.export({ format: 'jwk' }).d as string }],
    };

    // Act
    const set = await jsonWebKeySet(leaky);

    // Assess
    expect(set).toEqual({ keys: [jwk] });
    expect(set.keys[0]).not.toHaveProperty('d');
  });
});
