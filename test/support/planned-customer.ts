import { beforeAll, expect, inject } from 'vitest';
import type * as z from 'zod/mini';
import type { PaginationInfo } from '../../shared/http/pagination';
import { type ApiRequest, type ApiResponse, callApi } from './api-client';
import type { Answer } from './documented-statuses';
import { lookbackDays } from './planned-customer-usage';
import type { Caller, PlannedTenants } from './planned-tenants';
import { askSharedServer } from './server-broker';

export type { Caller } from './planned-tenants';

// biome-ignore lint/suspicious/noExplicitAny: plans as the API answered them
export type Json = any;

/**
 * The plan test files' real local server (`npm start`, orgs only) and its tenants
 * (planned-tenants.ts), made through the operator CLI, so the tests only read. The files share
 * one server for the whole run (the run's server broker starts it on the first file's ask,
 * docs/testing.md): no test writes to it.
 */
export interface PlannedCustomer extends PlannedTenants {
  /** Every answer to the file's requests, checked against the OpenAPI document by its last test. */
  readonly answered: Answer[];
  /** GET as the customer's admin unless another caller is given. */
  get(path: string, caller?: Caller): Promise<ApiResponse>;
  /** Every item of a paged list, page by page (100 a page). */
  allPages(path: string, caller?: Caller): Promise<Record<string, unknown>[]>;
  defaultPlans(provider: string, orgId?: string, caller?: Caller): Promise<Json[]>;
  highSavingsPlan(provider: string): Promise<Json>;
}

/** Reaches the run's planned customer before the file's tests (it outlives them: the run stops it). */
export function usePlannedCustomer(): PlannedCustomer {
  let tenants: PlannedTenants | undefined;
  beforeAll(async () => {
    tenants = await askSharedServer<PlannedTenants>(inject('serverBroker'), 'planned-customer');
  });
  const made = (): PlannedTenants => {
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
