import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { admin, type CreatedKey, type CreatedPartner } from './admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from './api-client';
import type { Answer } from './documented-statuses';
import { type LocalServer, startLocalServer } from './local-server';
import { type LocalStoreObserver, observeLocalStore } from './local-store';

/** Who asks: an org and an API key of it. */
export interface Caller {
  readonly orgId: string;
  readonly apiKey: string;
}

/**
 * A partner test file's real local server (`npm start`, orgs only: every rejected request
 * snapshots the whole table, which seeded usage would make large) and its tenants. One server for
 * the file; each test works on orgs of its own.
 */
export interface PartnerTenants {
  readonly server: LocalServer;
  readonly store: LocalStoreObserver;
  /** The seeded demo partner, and its seeded customer org with the customer admin's key. */
  readonly partner: Caller;
  readonly customer: Caller;
  /** A partner of its own, created with the operator CLI. */
  readonly secondPartner: Caller;
  /** Keys of the demo customer org: a `support` member's, and an admin's revoked one. */
  readonly supportKey: string;
  readonly revokedKey: string;
  /** Every answer to the file's requests, checked against the OpenAPI document by its last test. */
  readonly answered: Answer[];
  /** One request to the server, recorded in `answered`. */
  api(path: string, request?: ApiRequest): Promise<ApiResponse>;
  /** Registers a customer org of the demo partner through the API. */
  registerCustomer(body?: Record<string, unknown>): Promise<{ id: string; name: string }>;
  patchSettings(orgId: string, apiKey: string, json: unknown): Promise<ApiResponse>;
}

interface Made {
  readonly server: LocalServer;
  readonly store: LocalStoreObserver;
  readonly partner: Caller;
  readonly customer: Caller;
  readonly secondPartner: Caller;
  readonly supportKey: string;
  readonly revokedKey: string;
}

/** Starts the server and makes the tenants before the file's tests; stops it after them. */
export function usePartnerTenants(): PartnerTenants {
  let made: Made | undefined;
  beforeAll(async () => {
    made = await partnerTenants(await startLocalServer({ orgsOnly: true }));
  });
  afterAll(async () => {
    await made?.store.close();
    await made?.server.stop();
  });
  const tenants = (): Made => {
    if (!made) throw new Error('the tenants are made by beforeAll: read them inside a test or a hook');
    return made;
  };
  const answered: Answer[] = [];
  const api = async (path: string, request: ApiRequest = {}): Promise<ApiResponse> => {
    const { baseUrl } = tenants().server;
    const response = await callApi(baseUrl, path, request);
    answered.push({
      method: request.method ?? 'GET',
      path: new URL(path, baseUrl).pathname,
      status: response.status,
    });
    return response;
  };
  return {
    get server() {
      return tenants().server;
    },
    get store() {
      return tenants().store;
    },
    get partner() {
      return tenants().partner;
    },
    get customer() {
      return tenants().customer;
    },
    get secondPartner() {
      return tenants().secondPartner;
    },
    get supportKey() {
      return tenants().supportKey;
    },
    get revokedKey() {
      return tenants().revokedKey;
    },
    answered,
    api,
    async registerCustomer(body = {}) {
      const { partner } = tenants();
      const response = await api(registrationPath(partner.orgId), {
        method: 'POST',
        apiKey: partner.apiKey,
        json: { name: unique('Customer'), ...body },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    },
    patchSettings: (orgId, apiKey, json) => api(settingsPath(orgId), { method: 'PATCH', apiKey, json }),
  };
}

async function partnerTenants(server: LocalServer): Promise<Made> {
  const store = await observeLocalStore(server.dir);
  const { partner: demoPartner, org: demoOrg } = server.credentials;
  const customer = { orgId: demoOrg.org_id, apiKey: demoOrg.api_key };
  const [created, support, toRevoke] = await Promise.all([
    admin<CreatedPartner>(server.dir, ['create-partner', '--name', 'Second Partner']),
    admin<CreatedKey>(server.dir, keyArgs(customer.orgId, 'support@demo-customer.example', 'support')),
    admin<CreatedKey>(server.dir, keyArgs(customer.orgId, 'leaver@demo-customer.example', 'admin')),
  ]);
  await admin(server.dir, ['revoke-key', toRevoke.key_id]);
  return {
    server,
    store,
    partner: { orgId: demoPartner.org_id, apiKey: demoPartner.api_key },
    customer,
    secondPartner: { orgId: created.org_id, apiKey: created.api_key },
    supportKey: support.api_key,
    revokedKey: toRevoke.api_key,
  };
}

function keyArgs(orgId: string, email: string, role: string): string[] {
  return ['create-key', '--org', orgId, '--email', email, '--role', role];
}

export const registrationPath = (partnerOrgId: string) => `/v2/partners/${partnerOrgId}/orgs`;
export const invitesPath = (partnerOrgId: string, childOrgId: string) =>
  `/v2/partners/${partnerOrgId}/orgs/${childOrgId}/invites`;
export const settingsPath = (orgId: string) => `/v2/org/${orgId}/partners`;

/** A name (or e-mail domain) no other test uses: orgs and users outlive each test. */
export const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;
export const uniqueDomain = () => `${randomUUID().slice(0, 8)}.example`;

export const links = {
  aws_marketplace_offer_link: 'https://aws.amazon.com/marketplace/pp/prodview-example',
  azure_marketplace_offer_link: 'https://azuremarketplace.microsoft.com/marketplace/apps/example',
  gcp_marketplace_offer_link: 'https://console.cloud.google.com/marketplace/product/example',
};

export const invalidRequest = 'The request is not valid; `errors` names each failing field.';
export const invalidCredentials = 'Missing or invalid credentials.';

export function unprocessable(errors: Record<string, string[]>) {
  return { code: 422, status: 'Unprocessable Entity', message: invalidRequest, errors };
}

export function orgNotFound(orgId: string) {
  return { code: 404, status: 'Not Found', message: `Organization ${orgId} not found`, errors: {} };
}
