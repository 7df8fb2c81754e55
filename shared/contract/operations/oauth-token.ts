import { tokenErrorBody } from '../errors';
import { revocationRequestBody, tokenRequestBody, tokenResponse } from '../oauth-tokens';
import type { OperationList } from '../operation-contract';

/**
 * The authorization server's token endpoint (#2) and token revocation (RFC 7009): the one
 * function that signs access tokens.
 */
export const oauthTokenOperations = {
  issueToken: {
    method: 'POST',
    path: '/oauth/token',
    group: 'oauth-token',
    summary: 'Exchange an authorization code or a refresh token for tokens',
    tag: 'OAuth',
    public: false,
    oauth: true,
    body: tokenRequestBody,
    bodyMediaType: 'application/x-www-form-urlencoded',
    responses: { 200: tokenResponse },
    clientErrorBody: tokenErrorBody,
  },
  revokeToken: {
    method: 'POST',
    path: '/oauth/revoke',
    group: 'oauth-token',
    summary: 'Revoke a refresh or access token and its family (RFC 7009)',
    tag: 'OAuth',
    public: false,
    oauth: true,
    body: revocationRequestBody,
    bodyMediaType: 'application/x-www-form-urlencoded',
    responses: { 200: null },
    clientErrorBody: tokenErrorBody,
  },
} satisfies OperationList;
