import { registrationErrorBody } from '../errors';
import { clientRegistrationRequest, clientRegistrationResponse } from '../oauth-registration';
import type { OperationList } from '../operation-contract';

/**
 * Dynamic client registration (RFC 7591): stores a public client, ten an hour per network address
 * (docs/oauth.md, Clients). It creates no API Gateway key: every client's tokens share the one
 * usage identifier the API stack creates, and are throttled per client and org in the table
 * (docs/http.md, Throttling).
 */
export const oauthRegistrationOperations = {
  registerClient: {
    method: 'POST',
    path: '/oauth/register',
    group: 'oauth-registration',
    summary: 'Register a public client (RFC 7591 dynamic client registration)',
    tag: 'OAuth',
    public: false,
    oauth: true,
    body: clientRegistrationRequest,
    responses: { 201: clientRegistrationResponse },
    clientErrorBody: registrationErrorBody,
  },
} satisfies OperationList;
