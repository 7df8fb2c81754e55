import { jsonWebKeySet, protectedResourceMetadata } from '../oauth';
import type { OperationList } from '../operation-contract';

/**
 * The public documents of the resource server: the public keys that verify access tokens (#4)
 * and the RFC 9728 protected-resource metadata, served by a function of their own that holds no
 * secret and reads no table.
 */
export const jwksOperations = {
  getJwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    group: 'jwks',
    summary: 'The public keys that verify issued access tokens (RFC 7517)',
    tag: 'OAuth',
    public: true,
    responses: { 200: jsonWebKeySet },
  },
  getProtectedResourceMetadata: {
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    group: 'jwks',
    summary: "The API's protected-resource metadata: its authorization server and scopes (RFC 9728)",
    tag: 'OAuth',
    public: true,
    responses: { 200: protectedResourceMetadata },
  },
} satisfies OperationList;
