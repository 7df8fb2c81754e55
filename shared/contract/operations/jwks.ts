import { authorizationServerMetadata, jsonWebKeySet, protectedResourceMetadata } from '../oauth';
import type { OperationList } from '../operation-contract';

/**
 * The public OAuth documents: the authorization server's metadata (#3, RFC 8414), the public keys
 * that verify access tokens (#4) and the RFC 9728 protected-resource metadata, served by a
 * function of their own that holds no secret and reads no table. A client discovering the server
 * reads them one after the other, from one warm function that carries no mail, token or
 * registration code.
 */
export const jwksOperations = {
  getAuthorizationServerMetadata: {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    group: 'jwks',
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
    tag: 'OAuth',
    public: true,
    responses: { 200: authorizationServerMetadata },
  },
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
