import { registrationErrorBody } from '../errors';
import { clientRegistrationRequest, clientRegistrationResponse } from '../oauth-registration';
import type { OperationList } from '../operation-contract';

/**
 * Dynamic client registration (RFC 7591): the one function that gives a new client's tokens a
 * throttle bucket of their own (a key in the API's usage plan).
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
