import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type * as z from 'zod/mini';
import type { PaginationInfo } from '../../shared/http/pagination';
import { admin, type CreatedKey, type CreatedOrg, type CreatedPartner } from './admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from './api-client';
import type { Answer } from './documented-statuses';
import { type LocalServer, startLocalServer } from './local-server';
import { lookbackDays, lookbackStart, plannedCommitments, plannedUsage } from './planned-customer-usage';
import { usageLines } from './usage-files';

/** Who asks: an org and an API key of it. */
export interface Caller {
  readonly orgId: string;
  readonly apiKey: string;
}

// biome-ignore lint/suspicious/noExplicitAny: plans as the API answered them
export type Json = any;

/**
 * A plan test file's real local server (`npm start`, orgs only) and its tenants, made through the
 * operator CLI: a customer of the demo partner holding the usage and commitments of
 * planned-customer-usage.ts (whose imports compute the plans), so the tests only read.
 */
export interface PlannedCustomer {
  readonly server: LocalServer;
  /** The demo partner, and its customer org (an admin's key) holding the usage. */
  readonly partner: Caller;
  readonly customer: Caller;
  /** A child org of the demo partner without any usage. */
  readonly emptyOrgId: string;
  /** Callers of other tenants: a partner of its own, and a user of an org of its own. */
  readonly otherPartner: Caller;
  readonly otherUser: Caller;
  /** Every answer to the file's requests, checked against the OpenAPI document by its last test. */
  readonly answered: Answer[];
  /** GET as the customer's admin unless another caller is given. */
  get(path: string, caller?: Caller): Promise<ApiResponse>;
  /** Every item of a paged list, page by page (100 a page). */
  allPages(path: string, caller?: Caller): Promise<Record<string, unknown>[]>;
  defaultPlans(provider: string, orgId?: string, caller?: Caller): Promise<Json[]>;
  highSavingsPlan(provider: string): Promise<Json>;
}

interface Tenants {
  readonly server: LocalServer;
  readonly partner: Caller;
  readonly customer: Caller;
  readonly emptyOrgId: string;
  readonly otherPartner: Caller;
  readonly otherUser: Caller;
}

/** Starts the server and makes the tenants before the file's tests; stops it after them. */
export function usePlannedCustomer(): PlannedCustomer {
  let tenants: Tenants | undefined;
  beforeAll(async () => {
    tenants = await plannedTenants(await startLocalServer({ orgsOnly: true }));
  });
  afterAll(async () => {
    await tenants?.server.stop();
  });
  const made = (): Tenants => {
    if (!tenants) throw new Error('the tenants are made by beforeAll: read them inside a test or a hook');
    return tenants;
  };
  const answered: Answer[] = [];
  const get = async (path: string, caller: Caller = made().customer): Promise<ApiResponse> => {
    const { baseUrl } = made().server;
    const response = await callApi(baseUrl, path, { apiKey: caller.apiKey } satisfies ApiRequest);
    answered.push({ method: 'GET', path: new URL(path, baseUrl).pathname, status: response.status });
    return response;
  };
  const defaultPlans = async (provider: string, orgId = made().customer.orgId, caller = made().customer) => {
    const response = await get(plansPath(orgId, 'default', provider), caller);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Json[];
  };
  return {
    get server() {
      return made().server;
    },
    get partner() {
      return made().partner;
    },
    get customer() {
      return made().customer;
    },
    get emptyOrgId() {
      return made().emptyOrgId;
    },
    get otherPartner() {
      return made().otherPartner;
    },
    get otherUser() {
      return made().otherUser;
    },
    answered,
    get,
    async allPages(path, caller = made().customer) {
      const items: Record<string, unknown>[] = [];
      for (let page: number | null = 1; page !== null; ) {
        const response = await get(
          `${path}${path.includes('?') ? '&' : '?'}page=${page}&page_size=100`,
          caller,
        );
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        items.push(...response.body);
        page = paginationOf(response).next_page;
      }
      return items;
    },
    defaultPlans,
    async highSavingsPlan(provider) {
      return (await defaultPlans(provider)).find((plan) => plan.name === 'High Savings');
    },
  };
}

/** The tenants of PlannedCustomer, made through the operator CLI on `server`'s store. */
async function plannedTenants(server: LocalServer): Promise<Tenants> {
  const { partner: demoPartner } = server.credentials;
  const partner = { orgId: demoPartner.org_id, apiKey: demoPartner.api_key };
  const usageFile = join(server.dir, 'usage.csv');
  const commitmentFile = join(server.dir, 'commitments.csv');
  await writeFile(usageFile, `${usageLines(lookbackStart, 720, plannedUsage).join('\n')}\n`);
  await writeFile(commitmentFile, `${plannedCommitments.join('\n')}\n`);
  // A customer of its own: the file controls every row of it.
  const [planned, empty, otherPartner, lonelyOrg] = await Promise.all([
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Plans Customer', '--partner', partner.orgId]),
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Empty Customer', '--partner', partner.orgId]),
    admin<CreatedPartner>(server.dir, ['create-partner', '--name', 'Other Partner']),
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Other Company']),
  ]);
  const [plannedKey, otherKey] = await Promise.all([
    adminKeyOf(server, planned.org_id, 'finops@plans-customer.example'),
    adminKeyOf(server, lonelyOrg.org_id, 'ops@other.example'),
    admin(server.dir, ['import-usage', '--org', planned.org_id, '--file', usageFile]),
  ]);
  await admin(server.dir, ['import-commitments', '--org', planned.org_id, '--file', commitmentFile]);
  return {
    server,
    partner,
    customer: { orgId: planned.org_id, apiKey: plannedKey.api_key },
    emptyOrgId: empty.org_id,
    otherPartner: { orgId: otherPartner.org_id, apiKey: otherPartner.api_key },
    otherUser: { orgId: lonelyOrg.org_id, apiKey: otherKey.api_key },
  };
}

function adminKeyOf(server: LocalServer, orgId: string, email: string): Promise<CreatedKey> {
  return admin<CreatedKey>(server.dir, ['create-key', '--org', orgId, '--email', email, '--role', 'admin']);
}

export const plansPath = (orgId: string, kind: 'default' | 'recommended', provider: string) =>
  `/v1/org/${orgId}/commitment-plans/${kind}?provider=${provider}`;
export const lineItemsPath = (orgId: string, planId: string, query = '') =>
  `/v1/org/${orgId}/commitment-plans/${planId}/line-items${query ? `?${query}` : ''}`;
export const matchesPath = (orgId: string, planId: string, query: string) =>
  `/v1/org/${orgId}/commitment-plans/${planId}/resource-matches?${query}`;
export const wholeLookback = `start_date=${lookbackDays.start}&end_date=${lookbackDays.end}`;
export const chartPath = (orgId: string, query = '') =>
  `/v1/org/${orgId}/commitments/chart${query ? `?${query}` : ''}`;
export const purchasePlanPath = (orgId: string, provider: string) =>
  `/v2/org/${orgId}/partners/purchase-plans-v2/recommended?provider=${provider}`;

/** The body has exactly the contract's shape: parsing it through the schema changes nothing. */
export function expectShape(schema: z.ZodMiniType, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}

export function paginationOf(response: ApiResponse): PaginationInfo {
  return JSON.parse(response.headers.get('x-pagination') as string);
}

export const sum = (items: readonly Json[], field: string) =>
  items.reduce((total, item) => total + item[field], 0);

/** Asserts `items` are ordered by `key` (descending if asked), ties by id ascending. */
export function expectOrdered(
  items: readonly Json[],
  key: (item: Json) => string | number,
  descending: boolean,
): void {
  for (let k = 1; k < items.length; k++) {
    const [a, b] = [key(items[k - 1]), key(items[k])];
    if (a === b) expect(items[k - 1].id < items[k].id, `ties by id at ${k}`).toBe(true);
    else expect(descending ? a > b : a < b, `order at ${k}: ${a} then ${b}`).toBe(true);
  }
}
