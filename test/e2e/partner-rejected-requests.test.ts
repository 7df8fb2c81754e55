import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../support/api-client';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import {
  invalidCredentials,
  invitesPath,
  links,
  orgNotFound,
  registrationPath,
  unique,
  uniqueDomain,
  unprocessable,
  usePartnerTenants,
} from '../support/partner-tenants';

/**
 * The partner endpoints over HTTP, against the real local server (`npm start`) on a fresh directory:
 * every refused request answers its error body and changes nothing. One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api, patchSettings } = tenants;

interface Rejection {
  readonly fault: string;
  readonly status: number;
  /** Sends a request that would succeed but for `fault`. */
  readonly send: () => Promise<ApiResponse>;
  readonly body: () => Record<string, unknown>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Registers a customer org of the demo partner; `request` overrides what it gets wrong. */
function register(request: ApiRequest & { readonly json?: Record<string, unknown> }): Promise<ApiResponse> {
  return api(registrationPath(tenants.partner.orgId), {
    method: 'POST',
    apiKey: tenants.partner.apiKey,
    ...request,
    json: request.body === undefined ? { name: unique('Rejected'), ...request.json } : undefined,
  });
}

const rejections: readonly Rejection[] = [
  {
    fault: 'malformed JSON',
    status: 400,
    send: () => register({ body: '{"name": "Unfinished', headers: { 'content-type': 'application/json' } }),
    body: () => ({
      code: 400,
      status: 'Bad Request',
      message: 'The request body is not valid JSON.',
      errors: {},
    }),
  },
  {
    fault: 'a body declared as text/plain',
    status: 415,
    send: () =>
      register({
        body: JSON.stringify({ name: unique('Plain Text') }),
        headers: { 'content-type': 'text/plain' },
      }),
    body: () => ({
      code: 415,
      status: 'Unsupported Media Type',
      message: 'The request body must be JSON, sent with Content-Type: application/json.',
      errors: {},
    }),
  },
  {
    fault: 'an unknown field',
    status: 422,
    send: () => register({ json: { plan: 'gold' } }),
    body: () => unprocessable({ plan: ['is not an allowed field'] }),
  },
  {
    fault: 'an invalid e-mail address',
    status: 422,
    send: () => register({ json: { users: [{ email: 'ops.acme.example', role: 'admin' }] } }),
    body: () => unprocessable({ 'users.0.email': ['Invalid email address'] }),
  },
  {
    fault: 'an e-mail address over 255 characters',
    status: 422,
    send: () => register({ json: { users: [{ email: `${'a'.repeat(246)}@acme.example`, role: 'admin' }] } }),
    body: () => unprocessable({ 'users.0.email': ['Too big: expected string to have <=255 characters'] }),
  },
  {
    fault: 'an unknown role',
    status: 422,
    send: () => register({ json: { users: [{ email: `ops@${uniqueDomain()}`, role: 'owner' }] } }),
    body: () =>
      unprocessable({
        'users.0.role': [
          'Invalid option: expected one of "user"|"admin"|"support"|"cloud_rep"|"restricted_user"',
        ],
      }),
  },
  {
    fault: 'an e-mail address given twice',
    status: 422,
    send: () => {
      const domain = uniqueDomain();
      return api(invitesPath(tenants.partner.orgId, tenants.customer.orgId), {
        method: 'POST',
        apiKey: tenants.partner.apiKey,
        json: {
          users: [
            { email: `twice@${domain}`, role: 'user' },
            { email: ` TWICE@${domain}`, role: 'admin' },
          ],
        },
      });
    },
    body: () => unprocessable({ 'users.1.email': ['repeats the e-mail address of entry 0'] }),
  },
  {
    fault: 'a missing API key',
    status: 401,
    send: () => register({ apiKey: undefined }),
    body: () => ({ code: 401, status: 'Unauthorized', message: invalidCredentials, errors: {} }),
  },
  {
    fault: 'an unknown API key',
    status: 401,
    send: () => register({ apiKey: `cpk_${'A'.repeat(16)}_${'B'.repeat(40)}` }),
    body: () => ({ code: 401, status: 'Unauthorized', message: invalidCredentials, errors: {} }),
  },
  {
    fault: 'a revoked API key',
    status: 401,
    send: () => patchSettings(tenants.customer.orgId, tenants.revokedKey, links),
    body: () => ({ code: 401, status: 'Unauthorized', message: invalidCredentials, errors: {} }),
  },
  {
    fault: "another partner's customer org",
    status: 404,
    send: () => patchSettings(tenants.customer.orgId, tenants.secondPartner.apiKey, links),
    body: () => orgNotFound(tenants.customer.orgId),
  },
  {
    fault: 'an unknown route',
    status: 404,
    send: () =>
      api(`/v2/partners/${tenants.partner.orgId}/customers`, {
        method: 'POST',
        apiKey: tenants.partner.apiKey,
        json: {},
      }),
    body: () => ({ code: 404, status: 'Not Found', message: 'No such resource.', errors: {} }),
  },
  {
    fault: 'a method the route does not have',
    status: 405,
    send: () => register({ method: 'PUT' }),
    body: () => ({
      code: 405,
      status: 'Method Not Allowed',
      message: 'The resource does not support this method.',
      errors: {},
    }),
    headers: { allow: 'POST' },
  },
  {
    fault: 'a body over 256 KiB',
    status: 413,
    // Just over the limit: a client still sending megabytes when the server closes gets EPIPE.
    send: () => register({ json: { partner_subscription_id: 'x'.repeat(256 * 1024) } }),
    body: () => ({
      code: 413,
      status: 'Payload Too Large',
      message: 'The request body is larger than 262144 bytes.',
      errors: {},
    }),
  },
];

describe('rejected requests', () => {
  it.each(rejections)(
    'answers $status to $fault with the error body, and changes nothing',
    async ({ send, status, body, headers = {} }) => {
      // Prepare
      const before = await tenants.store.snapshot();

      // Act
      const response = await send();
      const after = await tenants.store.snapshot();

      // Assess
      expect(response.status).toBe(status);
      expect(response.body).toEqual(body());
      for (const [name, value] of Object.entries(headers)) {
        expect(response.headers.get(name), name).toBe(value);
      }
      expect(after).toEqual(before);
    },
  );
});

describe('the OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
