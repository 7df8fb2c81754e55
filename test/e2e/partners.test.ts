import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOrgName } from '../../local/demo-seed';
import { partnerSettings, registeredOrganization } from '../../shared/contract/partners';
import { membershipKey, orgKey, userKey } from '../../shared/store/keys';
import { admin, type CreatedKey, type CreatedPartner } from '../support/admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { type Answer, undocumentedAnswers } from '../support/documented-statuses';
import { repositoryRoot } from '../support/entry-point-process';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { itemAt, type LocalStoreObserver, observeLocalStore } from '../support/local-store';

/**
 * The partner endpoints (#11, #14, #15) over HTTP, against the real local server (`npm start`)
 * on a fresh directory: one server for the whole file, each test on orgs of its own.
 */

interface Caller {
  readonly orgId: string;
  readonly apiKey: string;
}

let server: LocalServer;
let store: LocalStoreObserver;
/** The seeded demo partner, and its seeded customer org with the customer admin's key. */
let partner: Caller;
let customer: Caller;
/** A partner of its own, created with the operator CLI. */
let secondPartner: Caller;
/** Keys of the demo customer org: a `support` member's, and an admin's revoked one. */
let supportKey: string;
let revokedKey: string;

beforeAll(async () => {
  // Orgs only: every rejected request snapshots the whole table, which seeded usage would make large.
  server = await startLocalServer({ orgsOnly: true });
  store = await observeLocalStore(server.dir);
  const { partner: demoPartner, org: demoOrg } = server.credentials;
  partner = { orgId: demoPartner.org_id, apiKey: demoPartner.api_key };
  customer = { orgId: demoOrg.org_id, apiKey: demoOrg.api_key };

  const [created, support, toRevoke] = await Promise.all([
    admin<CreatedPartner>(server.dir, ['create-partner', '--name', 'Second Partner']),
    admin<CreatedKey>(server.dir, keyArgs(customer.orgId, 'support@demo-customer.example', 'support')),
    admin<CreatedKey>(server.dir, keyArgs(customer.orgId, 'leaver@demo-customer.example', 'admin')),
  ]);
  await admin(server.dir, ['revoke-key', toRevoke.key_id]);
  secondPartner = { orgId: created.org_id, apiKey: created.api_key };
  supportKey = support.api_key;
  revokedKey = toRevoke.api_key;
});

afterAll(async () => {
  await store?.close();
  await server?.stop();
});

function keyArgs(orgId: string, email: string, role: string): string[] {
  return ['create-key', '--org', orgId, '--email', email, '--role', role];
}

/** Every answer to this file's requests, checked against the OpenAPI document by the last test. */
const answered: Answer[] = [];

async function api(path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const response = await callApi(server.baseUrl, path, request);
  answered.push({
    method: request.method ?? 'GET',
    path: new URL(path, server.baseUrl).pathname,
    status: response.status,
  });
  return response;
}

const registrationPath = (partnerOrgId: string) => `/v2/partners/${partnerOrgId}/orgs`;
const invitesPath = (partnerOrgId: string, childOrgId: string) =>
  `/v2/partners/${partnerOrgId}/orgs/${childOrgId}/invites`;
const settingsPath = (orgId: string) => `/v2/org/${orgId}/partners`;

/** A name (or e-mail domain) no other test uses: orgs and users outlive each test. */
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;
const uniqueDomain = () => `${randomUUID().slice(0, 8)}.example`;

const links = {
  aws_marketplace_offer_link: 'https://aws.amazon.com/marketplace/pp/prodview-example',
  azure_marketplace_offer_link: 'https://azuremarketplace.microsoft.com/marketplace/apps/example',
  gcp_marketplace_offer_link: 'https://console.cloud.google.com/marketplace/product/example',
};

/** Registers a customer org of the demo partner through the API. */
async function registerCustomer(body: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const response = await api(registrationPath(partner.orgId), {
    method: 'POST',
    apiKey: partner.apiKey,
    json: { name: unique('Customer'), ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

function patchSettings(orgId: string, apiKey: string, json: unknown): Promise<ApiResponse> {
  return api(settingsPath(orgId), { method: 'PATCH', apiKey, json });
}

const invalidRequest = 'The request is not valid; `errors` names each failing field.';
const invalidCredentials = 'Missing or invalid credentials.';

function unprocessable(errors: Record<string, string[]>) {
  return { code: 422, status: 'Unprocessable Entity', message: invalidRequest, errors };
}

function orgNotFound(orgId: string) {
  return { code: 404, status: 'Not Found', message: `Organization ${orgId} not found`, errors: {} };
}

describe('registering a customer org (#14)', () => {
  it('registers the reference body with its users, domain, address and links, and stores them', async () => {
    // Prepare
    const name = unique('Acme Corp');
    const domain = uniqueDomain();
    const body = {
      name,
      partner_subscription_id: 'sub-0042',
      users: [
        { email: ` Ops@${domain.toUpperCase()} `, role: 'admin' },
        { email: `finops@${domain}`, role: 'user' },
      ],
      domain: domain.toUpperCase(),
      primary_address: {
        line1: '1 Main Street',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'US',
      },
      ...links,
    };

    // Act
    const response = await api(registrationPath(partner.orgId), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: body,
    });
    const snapshot = await store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    const registered = registeredOrganization.parse(response.body);
    expect(response.body).toEqual({
      id: registered.id,
      child_org_id: registered.id,
      name,
      memberships: [
        { role: 'admin', username: `ops@${domain}` },
        { role: 'user', username: `finops@${domain}` },
      ],
      domain,
      primary_address: { ...body.primary_address, line2: null },
      ...links,
    });
    expect(itemAt(snapshot, orgKey(registered.id))).toMatchObject({
      name,
      parentOrgId: partner.orgId,
      isPartner: false,
      partnerSubscriptionId: 'sub-0042',
    });
    expect(itemAt(snapshot, membershipKey(registered.id, `ops@${domain}`))).toMatchObject({ role: 'admin' });
    expect(itemAt(snapshot, membershipKey(registered.id, `finops@${domain}`))).toMatchObject({
      role: 'user',
    });
    expect(itemAt(snapshot, userKey(`ops@${domain}`))).toBeDefined();
  });

  it('registers the second body shape, making the contact and every listed user an admin', async () => {
    // Prepare
    const name = unique('Beta Ltd');
    const domain = uniqueDomain();

    // Act
    const response = await api(registrationPath(partner.orgId), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: {
        org_name: name,
        org_email: `Contact@${domain}`,
        user_emails: [`ann@${domain}`, `bob@${domain}`],
        user_names: ['Ann Example', 'Bob Example'],
      },
    });
    const snapshot = await store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    const registered = registeredOrganization.parse(response.body);
    expect(registered).toEqual({
      id: registered.id,
      child_org_id: registered.id,
      name,
      memberships: [
        { role: 'admin', username: `contact@${domain}` },
        { role: 'admin', username: `ann@${domain}` },
        { role: 'admin', username: `bob@${domain}` },
      ],
      domain: null,
      primary_address: null,
      aws_marketplace_offer_link: null,
      azure_marketplace_offer_link: null,
      gcp_marketplace_offer_link: null,
    });
    expect(itemAt(snapshot, userKey(`ann@${domain}`))).toMatchObject({ name: 'Ann Example' });
  });

  it('answers 409 naming the existing org for a name registered already, whatever its case and spaces', async () => {
    // Prepare
    const name = unique('Gamma Corp');
    const existing = await registerCustomer({ name });
    const variant = `  ${name.toUpperCase().replace(' ', '   ')} `;
    const before = await store.snapshot();

    // Act
    const referenceForm = await api(registrationPath(partner.orgId), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { name: variant, users: [{ email: `ops@${uniqueDomain()}`, role: 'admin' }] },
    });
    const secondForm = await api(registrationPath(partner.orgId), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { org_name: name.toLowerCase() },
    });
    const after = await store.snapshot();

    // Assess
    const conflict = (given: string) => ({
      code: 409,
      status: 'Conflict',
      message: `An organization named "${given}" is already registered as ${existing.id}`,
      errors: { name: [`already registered as ${existing.id}`] },
    });
    expect(referenceForm.status).toBe(409);
    expect(referenceForm.body).toEqual(conflict(variant.trim()));
    expect(secondForm.status).toBe(409);
    expect(secondForm.body).toEqual(conflict(name.toLowerCase()));
    expect(after).toEqual(before);
  });

  it('registers one org when registrations of a name race, storing nothing of the ones answered 409', async () => {
    // Prepare
    const name = unique('Racing Co');
    const domain = uniqueDomain();
    const emails = ['one', 'two', 'three', 'four', 'five', 'six'].map((user) => `${user}@${domain}`);

    // Act
    const responses = await Promise.all(
      emails.map((email) =>
        api(registrationPath(partner.orgId), {
          method: 'POST',
          apiKey: partner.apiKey,
          json: { name, users: [{ email, role: 'admin' }] },
        }),
      ),
    );
    const snapshot = await store.snapshot();

    // Assess
    const winners = responses.filter((response) => response.status === 200);
    expect(winners).toHaveLength(1);
    const winner = registeredOrganization.parse(winners[0]?.body);
    const losers = responses.filter((response) => response !== winners[0]);
    expect(losers.map((response) => [response.status, response.body.errors])).toEqual(
      losers.map(() => [409, { name: [`already registered as ${winner.id}`] }]),
    );
    const members = snapshot.filter((item) => item.type === 'membership' && item.orgId === winner.id);
    expect(members.map((item) => item.email)).toEqual(winner.memberships.map((member) => member.username));
    const users = emails.filter((email) => itemAt(snapshot, userKey(email)) !== undefined);
    expect(users).toEqual(winner.memberships.map((member) => member.username));
  });
});

describe('inviting users to a customer org (#15)', () => {
  it('creates the users who are new and makes them members with their roles', async () => {
    // Prepare
    const child = await registerCustomer();
    const domain = uniqueDomain();

    // Act
    const response = await api(invitesPath(partner.orgId, child.id), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: {
        users: [
          { email: `Dev@${domain}`, role: 'user' },
          { email: `help@${domain}`, role: 'support' },
        ],
      },
    });
    const snapshot = await store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { role: 'user', username: `dev@${domain}` },
      { role: 'support', username: `help@${domain}` },
    ]);
    expect(itemAt(snapshot, userKey(`dev@${domain}`))).toBeDefined();
    expect(itemAt(snapshot, userKey(`help@${domain}`))).toBeDefined();
    expect(itemAt(snapshot, membershipKey(child.id, `dev@${domain}`))).toMatchObject({ role: 'user' });
    expect(itemAt(snapshot, membershipKey(child.id, `help@${domain}`))).toMatchObject({ role: 'support' });
  });

  it('leaves a member invited again with the same role exactly as it was', async () => {
    // Prepare
    const email = `ops@${uniqueDomain()}`;
    const child = await registerCustomer({ users: [{ email, role: 'admin' }] });
    const before = await store.snapshot();

    // Act
    const response = await api(invitesPath(partner.orgId, child.id), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { users: [{ email: email.toUpperCase(), role: 'admin' }] },
    });
    const after = await store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ role: 'admin', username: email }]);
    expect(after).toEqual(before);
  });

  it('gives a member invited with another role that role, keeping when it joined', async () => {
    // Prepare
    const email = `ops@${uniqueDomain()}`;
    const child = await registerCustomer({ users: [{ email, role: 'admin' }] });
    const joined = itemAt(await store.snapshot(), membershipKey(child.id, email));

    // Act
    const response = await api(invitesPath(partner.orgId, child.id), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { users: [{ email, role: 'restricted_user' }] },
    });
    const updated = itemAt(await store.snapshot(), membershipKey(child.id, email));

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ role: 'restricted_user', username: email }]);
    expect(updated).toMatchObject({ role: 'restricted_user', createdAt: joined?.createdAt });
  });
});

describe('partner settings (#11)', () => {
  it("lets the customer org's admin set its links and answers the partner settings", async () => {
    // Act
    const response = await patchSettings(customer.orgId, customer.apiKey, links);

    // Assess
    expect(response.status).toBe(200);
    expect(() => partnerSettings.parse(response.body)).not.toThrow();
    expect(response.body).toEqual({ id: customer.orgId, name: demoOrgName, ...links });
  });

  it('lets the partner set a link of its customer org, keeping the links left out', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const azure = 'https://azuremarketplace.microsoft.com/marketplace/apps/other-offer';

    // Act
    const response = await patchSettings(child.id, partner.apiKey, { azure_marketplace_offer_link: azure });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: child.id,
      name: child.name,
      ...links,
      azure_marketplace_offer_link: azure,
    });
  });

  it('clears a link given as null and stores the result', async () => {
    // Prepare
    const child = await registerCustomer(links);

    // Act
    const response = await patchSettings(child.id, partner.apiKey, { aws_marketplace_offer_link: null });
    const stored = itemAt(await store.snapshot(), orgKey(child.id));

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: child.id,
      name: child.name,
      ...links,
      aws_marketplace_offer_link: null,
    });
    expect(stored?.offerLinks).toEqual({
      aws: null,
      azure: links.azure_marketplace_offer_link,
      gcp: links.gcp_marketplace_offer_link,
    });
  });

  it('refuses an http:// link with 422 naming the field, and changes nothing', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const before = await store.snapshot();

    // Act
    const response = await patchSettings(child.id, partner.apiKey, {
      gcp_marketplace_offer_link: 'https://console.cloud.google.com/marketplace/product/other',
      aws_marketplace_offer_link: 'http://aws.amazon.com/marketplace/pp/prodview-example',
    });
    const after = await store.snapshot();

    // Assess
    expect(response.status).toBe(422);
    expect(response.body).toEqual(unprocessable({ aws_marketplace_offer_link: ['must be an https URL'] }));
    expect(after).toEqual(before);
  });

  it('refuses a link whose trusted-looking host is only userinfo with 422 naming the field', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const before = await store.snapshot();

    // Act
    const response = await patchSettings(child.id, partner.apiKey, {
      aws_marketplace_offer_link: 'https://aws.amazon.com@evil.example/',
    });
    const after = await store.snapshot();

    // Assess
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      unprocessable({
        aws_marketplace_offer_link: ['must not carry a user name or password (userinfo) before the host'],
      }),
    );
    expect(after).toEqual(before);
  });
});

describe('partner settings updated concurrently (#11)', () => {
  it('applies every update: concurrent updates of different links all answer 200 and all stick', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const fields = Object.keys(links) as (keyof typeof links)[];
    const updates = fields.map((field, index) => ({ field, link: `${links[field]}-update-${index}` }));

    // Act
    const responses = await Promise.all(
      updates.map(({ field, link }) => patchSettings(child.id, partner.apiKey, { [field]: link })),
    );
    const stored = itemAt(await store.snapshot(), orgKey(child.id));

    // Assess
    expect(responses.map((response) => response.status)).toEqual(updates.map(() => 200));
    const storedLinks = stored?.offerLinks as Record<string, string>;
    for (const { field, link } of updates) {
      expect(storedLinks[field.replace('_marketplace_offer_link', '')], field).toBe(link);
    }
  });
});

describe('tenant isolation', () => {
  it("hides the first partner's customer org from a second partner's invites", async () => {
    // Prepare
    const child = await registerCustomer();
    const invite = { users: [{ email: `intruder@${uniqueDomain()}`, role: 'admin' }] };
    const before = await store.snapshot();

    // Act
    const underOwnId = await api(invitesPath(secondPartner.orgId, child.id), {
      method: 'POST',
      apiKey: secondPartner.apiKey,
      json: invite,
    });
    const underFirstPartnersId = await api(invitesPath(partner.orgId, child.id), {
      method: 'POST',
      apiKey: secondPartner.apiKey,
      json: invite,
    });
    const after = await store.snapshot();

    // Assess
    expect(underOwnId.status).toBe(404);
    expect(underOwnId.body).toEqual(orgNotFound(child.id));
    expect(underFirstPartnersId.status).toBe(404);
    expect(underFirstPartnersId.body).toEqual(orgNotFound(partner.orgId));
    expect(after).toEqual(before);
  });

  it("hides the first partner's customer org from a second partner's settings update", async () => {
    // Prepare
    const child = await registerCustomer();
    const before = await store.snapshot();

    // Act
    const response = await patchSettings(child.id, secondPartner.apiKey, links);
    const after = await store.snapshot();

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual(orgNotFound(child.id));
    expect(after).toEqual(before);
  });

  it("answers 404 to a second partner registering under the first partner's id, but not under its own", async () => {
    // Prepare
    const name = unique('Shared Name');
    await registerCustomer({ name });
    const before = await store.snapshot();

    // Act
    const underFirstPartnersId = await api(registrationPath(partner.orgId), {
      method: 'POST',
      apiKey: secondPartner.apiKey,
      json: { name: unique('Poached') },
    });
    const after = await store.snapshot();
    const underOwnId = await api(registrationPath(secondPartner.orgId), {
      method: 'POST',
      apiKey: secondPartner.apiKey,
      json: { name },
    });

    // Assess
    expect(underFirstPartnersId.status).toBe(404);
    expect(underFirstPartnersId.body).toEqual(orgNotFound(partner.orgId));
    expect(after).toEqual(before);
    expect(underOwnId.status).toBe(200);
    expect(underOwnId.body).toMatchObject({ name });
  });

  it("answers 403 to a support member updating its own org's settings, and changes nothing", async () => {
    // Prepare
    const before = await store.snapshot();

    // Act
    const response = await patchSettings(customer.orgId, supportKey, links);
    const after = await store.snapshot();

    // Assess
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 403,
      status: 'Forbidden',
      message: `Your role may not perform this operation on organization ${customer.orgId}`,
      errors: {},
    });
    expect(after).toEqual(before);
  });
});

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
  return api(registrationPath(partner.orgId), {
    method: 'POST',
    apiKey: partner.apiKey,
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
      return api(invitesPath(partner.orgId, customer.orgId), {
        method: 'POST',
        apiKey: partner.apiKey,
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
    send: () => patchSettings(customer.orgId, revokedKey, links),
    body: () => ({ code: 401, status: 'Unauthorized', message: invalidCredentials, errors: {} }),
  },
  {
    fault: "another partner's customer org",
    status: 404,
    send: () => patchSettings(customer.orgId, secondPartner.apiKey, links),
    body: () => orgNotFound(customer.orgId),
  },
  {
    fault: 'an unknown route',
    status: 404,
    send: () =>
      api(`/v2/partners/${partner.orgId}/customers`, { method: 'POST', apiKey: partner.apiKey, json: {} }),
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
      const before = await store.snapshot();

      // Act
      const response = await send();
      const after = await store.snapshot();

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

describe('request ids', () => {
  const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('puts a request id on every response, successes and errors, from handlers and the server', async () => {
    // Act
    const responses = await Promise.all([
      api('/openapi.json'),
      patchSettings(customer.orgId, customer.apiKey, {}),
      patchSettings(customer.orgId, customer.apiKey, { aws_marketplace_offer_link: 'ftp://example.com' }),
      api(settingsPath(customer.orgId), { method: 'PATCH', json: {} }),
      api('/no/such/route'),
      api(settingsPath(customer.orgId), { method: 'DELETE', apiKey: customer.apiKey }),
    ]);

    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200, 422, 401, 404, 405]);
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(uuidPattern);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("echoes a caller's plain-token request id and replaces one that is not", async () => {
    // Act
    const echoed = await Promise.all([
      api(settingsPath(customer.orgId), {
        method: 'PATCH',
        apiKey: customer.apiKey,
        json: {},
        headers: { 'x-request-id': 'e2e-trace.0001' },
      }),
      api('/no/such/route', { headers: { 'x-request-id': 'e2e-trace.0002' } }),
      api(settingsPath(customer.orgId), {
        method: 'PATCH',
        json: {},
        headers: { 'x-request-id': 'e2e-trace.0003' },
      }),
    ]);
    const replaced = await api('/openapi.json', { headers: { 'x-request-id': 'not a plain token' } });

    // Assess
    expect(echoed.map((response) => [response.status, response.headers.get('x-request-id')])).toEqual([
      [200, 'e2e-trace.0001'],
      [404, 'e2e-trace.0002'],
      [401, 'e2e-trace.0003'],
    ]);
    expect(replaced.headers.get('x-request-id')).toMatch(uuidPattern);
  });
});

describe('the OpenAPI document', () => {
  it("is served publicly, without a key, as docs/openapi.json with this server's base URL", async () => {
    // Prepare
    const published = JSON.parse(await readFile(join(repositoryRoot, 'docs/openapi.json'), 'utf8'));

    // Act
    const response = await api('/openapi.json');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({
      ...published,
      servers: [{ url: server.baseUrl, description: 'This deployment' }],
    });
    expect(published.servers).toEqual([
      { url: 'http://127.0.0.1:3000', description: 'The local server (npm start)' },
    ]);
  });

  // Runs last: it reads what every test before it was answered.
  it('documents every status the operations answered in this file', async () => {
    // Act
    const undocumented = await undocumentedAnswers(answered);

    // Assess
    expect(answered.length, 'the answers of the tests before this one').toBeGreaterThan(50);
    expect(undocumented).toEqual([]);
  });
});
