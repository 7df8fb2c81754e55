import { tokenErrorBody } from '../errors';
import { authorizationServerMetadata, authorizeQuery, tokenRequestBody, tokenResponse } from '../oauth';
import type { OperationList } from '../operation-contract';

/** The OAuth 2.0 authorization server: authorize (#1), token (#2) and its metadata (#3). */
export const oauthOperations = {
  authorize: {
    method: 'GET',
    path: '/oauth/authorize',
    group: 'oauth',
    summary: 'Start an authorization (code grant with PKCE): redirects to the consent page',
    tag: 'OAuth',
    public: false,
    oauth: true,
    query: authorizeQuery,
    responses: { 302: null },
  },
  issueToken: {
    method: 'POST',
    path: '/oauth/token',
    group: 'oauth',
    summary: 'Exchange an authorization code or a refresh token for tokens',
    tag: 'OAuth',
    public: false,
    oauth: true,
    body: tokenRequestBody,
    bodyMediaType: 'application/x-www-form-urlencoded',
    responses: { 200: tokenResponse },
    clientErrorBody: tokenErrorBody,
  },
  getAuthorizationServerMetadata: {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    group: 'oauth',
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
    tag: 'OAuth',
    public: true,
    responses: { 200: authorizationServerMetadata },
  },
} satisfies OperationList;
