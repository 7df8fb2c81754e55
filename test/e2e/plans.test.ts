import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { chartResponse } from '../../shared/contract/chart';
import { lineItemSortFields, resourceMatchSortFields } from '../../shared/contract/plan-queries';
import { lineItemSortKeys, resourceMatchSortKeys } from '../../shared/contract/plan-views';
import { commitmentPlan, lineItem } from '../../shared/contract/plans';
import { recommendedPurchasePlan } from '../../shared/contract/purchase-plans';
import { resourceMatch } from '../../shared/contract/resource-matches';
import type { PaginationInfo } from '../../shared/http/pagination';
import { admin, type CreatedKey, type CreatedOrg, type CreatedPartner } from '../support/admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { type Answer, undocumentedAnswers } from '../support/documented-statuses';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { alwaysOn, commitmentHeader, type FleetResource, fleet, usageLines } from '../support/usage-files';

/**
 * The plan endpoints (#5, #6, #7, #9, #10, #12) over HTTP, against the real local server on a
 * fresh directory. The demo customer org gets usage and commitments through the operator CLI
 * (whose imports compute the plans); the tests then only read.
 */

interface Caller {
  readonly orgId: string;
  readonly apiKey: string;
}

let server: LocalServer;
/** The demo partner, and its customer org (an admin's key) holding the usage. */
let partner: Caller;
let customer: Caller;
/** A child org of the demo partner without any usage. */
let emptyOrgId: string;
/** Callers of other tenants: a partner of its own, and a user of an org of its own. */
let otherPartner: Caller;
let otherUser: Caller;

/**
 * The lookback of every plan below: the 720 hours (30 days) of October 1 to 30, 2026, ending
 * with the last hour of the imported usage.
 */
const lookbackStart = '2026-10-01T00:00:00Z';
const lookbackDays = { start: '2026-10-01', end: '2026-10-30' };

/**
 * The known optimum (GCP, no fee, High Savings: no hazard). n2-standard-8 in us-central1 costs
 * p = 0.388472 an hour on demand; its 3-year commitment r = 0.174812 (r/p = 0.45), its 1-year one
 * r = 0.244736 (r/p = 0.63). Four instances always run and six more in 3 hours of every 5, so
 * the hourly count R is 10 in 60% of the hours and 4 in 40%: F(k), the share of hours with
 * R >= k, is 1 for k <= 4 and 0.6 for 5 <= k <= 10.
 *   3 years: unit k is worth buying iff F(k) > r/p = 0.45, so all 10 are bought. Per hour:
 *     covered on demand = p x mean(min(R, 10)) = 0.388472 x (0.6 x 10 + 0.4 x 4) = 0.388472 x 7.6
 *                       = 2.9523872; amortized = 10 x 0.174812 = 1.74812; savings = 1.2042672.
 *   1 year: F(5) = 0.6 < 0.63, so only 4, saving 4 x (0.388472 - 0.244736) = 0.574944 an hour.
 * The line item of greatest total value is the 3-year one, with 10 instances (averaging the
 * usage, 7.6, would buy 7).
 */
const gcpProject = {
  provider: 'gcp',
  accountId: 'acme-prod',
  service: 'Compute Engine',
  operatingSystem: 'Linux',
} as const;
const knownOptimum = {
  instanceType: 'n2-standard-8',
  quantity: 10,
  term: 'three_year',
  coveredOndemandCost: 0.388472 * 7.6,
  amortizedCost: 10 * 0.174812,
  savings: 0.388472 * 7.6 - 10 * 0.174812,
};

const usage: FleetResource[] = [
  ...fleet(4, 'gce-always', {
    ...gcpProject,
    region: 'us-central1',
    instanceType: 'n2-standard-8',
    unitsAt: alwaysOn,
  }),
  ...fleet(6, 'gce-burst', {
    ...gcpProject,
    region: 'us-central1',
    instanceType: 'n2-standard-8',
    unitsAt: (t) => (t % 5 < 3 ? 1 : 0),
  }),
  ...fleet(2, 'gce-api', {
    ...gcpProject,
    region: 'us-central1',
    instanceType: 'n2-standard-4',
    unitsAt: alwaysOn,
  }),
  ...fleet(3, 'gce-eu', {
    ...gcpProject,
    region: 'europe-west1',
    instanceType: 'n2-standard-2',
    unitsAt: alwaysOn,
  }),
  ...fleet(3, 'web', {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    unitsAt: alwaysOn,
  }),
  ...fleet(2, 'web-peak', {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.xlarge',
    operatingSystem: 'Linux',
    unitsAt: (t) => (t % 5 < 3 ? 1 : 0),
  }),
  ...fleet(2, 'win', {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.xlarge',
    operatingSystem: 'Windows',
    unitsAt: alwaysOn,
  }),
  ...fleet(4, 'batch', {
    provider: 'aws',
    accountId: '222222222222',
    region: 'us-west-2',
    service: 'AmazonEC2',
    instanceType: 'c5.large',
    operatingSystem: 'Linux',
    unitsAt: (t) => (t % 10 < 7 ? 1 : 0),
  }),
  ...fleet(1, 'cache', {
    provider: 'aws',
    accountId: '222222222222',
    region: 'eu-west-1',
    service: 'AmazonEC2',
    instanceType: 'r5.large',
    operatingSystem: 'Linux',
    unitsAt: alwaysOn,
  }),
];

/**
 * Two AWS commitments: two m5.large reserved for 2026 at 0.124 an hour (both instances, no
 * upfront), and a compute savings plan of $0.50 an hour for March 2026 to March 2027.
 */
const commitments = [
  commitmentHeader,
  'aws,111111111111,us-east-1,standard_ris,m5.large,2,0,0,0.124,2026-01-01T00:00:00Z,2027-01-01T00:00:00Z,',
  'aws,111111111111,,compute_plans,,0,0.5,0,0.5,2026-03-01,2027-03-01,',
];

beforeAll(async () => {
  // The first start seeds the demo with usage: its AWS export is written, delivered and synced
  // before the server listens, which on a loaded machine takes longer than an empty start.
  server = await startLocalServer();
  const { partner: demoPartner } = server.credentials;
  partner = { orgId: demoPartner.org_id, apiKey: demoPartner.api_key };
  // A customer of its own: the demo customer has seeded usage, this file controls every row.
  const planned = await admin<CreatedOrg>(server.dir, [
    'create-org',
    '--name',
    'Plans Customer',
    '--partner',
    partner.orgId,
  ]);
  const plannedKey = await admin<CreatedKey>(server.dir, [
    'create-key',
    '--org',
    planned.org_id,
    '--email',
    'finops@plans-customer.example',
    '--role',
    'admin',
  ]);
  customer = { orgId: planned.org_id, apiKey: plannedKey.api_key };

  const usageFile = join(server.dir, 'usage.csv');
  const commitmentFile = join(server.dir, 'commitments.csv');
  await writeFile(usageFile, `${usageLines(lookbackStart, 720, usage).join('\n')}\n`);
  await writeFile(commitmentFile, `${commitments.join('\n')}\n`);
  const [, empty, createdPartner, lonelyOrg] = await Promise.all([
    admin(server.dir, ['import-usage', '--org', customer.orgId, '--file', usageFile]),
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Empty Customer', '--partner', partner.orgId]),
    admin<CreatedPartner>(server.dir, ['create-partner', '--name', 'Other Partner']),
    admin<CreatedOrg>(server.dir, ['create-org', '--name', 'Other Company']),
  ]);
  await admin(server.dir, ['import-commitments', '--org', customer.orgId, '--file', commitmentFile]);
  const otherKey = await admin<CreatedKey>(server.dir, [
    'create-key',
    '--org',
    lonelyOrg.org_id,
    '--email',
    'ops@other.example',
    '--role',
    'admin',
  ]);
  emptyOrgId = empty.org_id;
  otherPartner = { orgId: createdPartner.org_id, apiKey: createdPartner.api_key };
  otherUser = { orgId: lonelyOrg.org_id, apiKey: otherKey.api_key };
});

afterAll(async () => {
  await server?.stop();
});

/** Every answer to this file's requests, checked against the OpenAPI document by the last test. */
const answered: Answer[] = [];

async function api(path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const response = await callApi(server.baseUrl, path, request);
  answered.push({ method: 'GET', path: new URL(path, server.baseUrl).pathname, status: response.status });
  return response;
}

/** GET as the customer's admin unless another caller is given. */
function get(path: string, caller: Caller = customer): Promise<ApiResponse> {
  return api(path, { apiKey: caller.apiKey });
}

const plansPath = (orgId: string, kind: 'default' | 'recommended', provider: string) =>
  `/v1/org/${orgId}/commitment-plans/${kind}?provider=${provider}`;
const lineItemsPath = (orgId: string, planId: string, query = '') =>
  `/v1/org/${orgId}/commitment-plans/${planId}/line-items${query ? `?${query}` : ''}`;
const matchesPath = (orgId: string, planId: string, query: string) =>
  `/v1/org/${orgId}/commitment-plans/${planId}/resource-matches?${query}`;
const wholeLookback = `start_date=${lookbackDays.start}&end_date=${lookbackDays.end}`;
const chartPath = (orgId: string, query = '') =>
  `/v1/org/${orgId}/commitments/chart${query ? `?${query}` : ''}`;
const purchasePlanPath = (orgId: string, provider: string) =>
  `/v2/org/${orgId}/partners/purchase-plans-v2/recommended?provider=${provider}`;

/** The body has exactly the contract's shape: parsing it through the schema changes nothing. */
function expectShape(schema: z.ZodMiniType, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}

function paginationOf(response: ApiResponse): PaginationInfo {
  return JSON.parse(response.headers.get('x-pagination') as string);
}

/** Every item of a paged list, page by page (100 a page). */
async function allPages(path: string, caller: Caller = customer): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page: number | null = 1; page !== null; ) {
    const response = await get(`${path}${path.includes('?') ? '&' : '?'}page=${page}&page_size=100`, caller);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    items.push(...response.body);
    page = paginationOf(response).next_page;
  }
  return items;
}

// biome-ignore lint/suspicious/noExplicitAny: plans as the API answered them
type Json = any;

async function defaultPlans(provider: string, orgId = customer.orgId, caller = customer): Promise<Json[]> {
  const response = await get(plansPath(orgId, 'default', provider), caller);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

async function highSavingsPlan(provider: string): Promise<Json> {
  return (await defaultPlans(provider)).find((plan) => plan.name === 'High Savings');
}

const sum = (items: readonly Json[], field: string) => items.reduce((total, item) => total + item[field], 0);

/** Asserts `items` are ordered by `key` (descending if asked), ties by id ascending. */
function expectOrdered(
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

describe('default plans (#6)', () => {
  it('answers the three default plans of each provider with usage, in the contract’s shape', async () => {
    for (const provider of ['aws', 'gcp']) {
      // Act
      const plans = await defaultPlans(provider);

      // Assess
      expect(plans.map((plan) => plan.name)).toEqual(['Recommended', 'Balanced', 'High Savings']);
      for (const plan of plans) {
        expectShape(commitmentPlan, plan);
        expect(plan).toMatchObject({ org_id: customer.orgId, status: 'new', is_calculating: false });
        expect(plan.savings_hourly).toBeGreaterThan(0);
      }
    }
  });

  it('keeps the plans’ ids while the usage does not change', async () => {
    // Act
    const [first, second] = [await defaultPlans('gcp'), await defaultPlans('gcp')];

    // Assess
    expect(second.map((plan) => plan.id)).toEqual(first.map((plan) => plan.id));
  });

  it('adds up each plan’s line items to the plan’s figures', async () => {
    for (const provider of ['aws', 'gcp']) {
      for (const plan of await defaultPlans(provider)) {
        // Act
        const items = await allPages(lineItemsPath(customer.orgId, plan.id));

        // Assess
        expect(items.length).toBeGreaterThan(0);
        expect(sum(items, 'covered_ondemand_cost')).toBeCloseTo(plan.covered_ondemand_cost_hourly, 9);
        expect(sum(items, 'after_amortized_cost')).toBeCloseTo(plan.amortized_cost_hourly, 9);
        expect(sum(items, 'recurring_cost')).toBeCloseTo(plan.recurring_cost_hourly, 9);
        expect(sum(items, 'fee')).toBeCloseTo(plan.fee_hourly, 9);
        expect(sum(items, 'savings')).toBeCloseTo(plan.savings_hourly, 9);
        expect(plan.before_cost_hourly - plan.after_cost_hourly).toBeCloseTo(plan.savings_hourly, 9);
      }
    }
  });

  it('accounts for the commitments the org owns', async () => {
    // Act
    const [plan] = await defaultPlans('aws');

    // Assess: 0.124 an hour of reserved instances and $0.50 an hour of savings plan, both used in full.
    expect(plan.before_reserved_cost_hourly).toBeCloseTo(0.624, 9);
  });

  it('answers three plans without savings for a provider the org has no usage of', async () => {
    // Act
    const plans = await defaultPlans('azure', emptyOrgId, partner);

    // Assess
    expect(plans.map((plan) => [plan.name, plan.savings_hourly, plan.max_term])).toEqual([
      ['Recommended', 0, null],
      ['Balanced', 0, null],
      ['High Savings', 0, null],
    ]);
    expect((await allPages(lineItemsPath(emptyOrgId, plans[0].id), partner)).length).toBe(0);
  });

  it('answers 422 naming `provider` when it is missing or not a cloud provider', async () => {
    // Act
    const missing = await get(`/v1/org/${customer.orgId}/commitment-plans/default`);
    const unknown = await get(plansPath(customer.orgId, 'default', 'oracle'));

    // Assess
    expect([missing.status, unknown.status]).toEqual([422, 422]);
    expect(Object.keys(missing.body.errors)).toEqual(['provider']);
    expect(Object.keys(unknown.body.errors)).toEqual(['provider']);
  });
});

describe('recommended plan (#5)', () => {
  it('answers the Recommended default plan', async () => {
    // Prepare
    const [recommended] = await defaultPlans('aws');

    // Act
    const response = await get(plansPath(customer.orgId, 'recommended', 'aws'));

    // Assess
    expect(response.status).toBe(200);
    expectShape(commitmentPlan, response.body);
    expect(response.body).toEqual(recommended);
  });

  it('answers 204 with no body when the provider has no recommended plan', async () => {
    // Act
    const response = await get(plansPath(customer.orgId, 'recommended', 'azure'));

    // Assess
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
  });
});

describe('the known optimum', () => {
  it('buys the quantity worked out by hand in the High Savings plan', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');

    // Act
    const items = await allPages(lineItemsPath(customer.orgId, plan.id));
    const line: Json = items.find((item: Json) => item.offer.instance_type === knownOptimum.instanceType);

    // Assess
    expect(line).toMatchObject({
      recommended_quantity: knownOptimum.quantity,
      selected_quantity: knownOptimum.quantity,
      contract_term: knownOptimum.term,
      is_selected: true,
    });
    expect(line.covered_ondemand_cost).toBeCloseTo(knownOptimum.coveredOndemandCost, 9);
    expect(line.after_amortized_cost).toBeCloseTo(knownOptimum.amortizedCost, 9);
    expect(line.savings).toBeCloseTo(knownOptimum.savings, 9);
    expect(line.after_covered_units).toBeCloseTo(7.6, 9);
  });
});

describe('line items (#7)', () => {
  it('pages the line items by id by default, describing the pages in X-Pagination', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const all = await allPages(lineItemsPath(customer.orgId, plan.id));

    // Act
    const response = await get(lineItemsPath(customer.orgId, plan.id, 'page_size=2'));

    // Assess
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(response.status).toBe(200);
    for (const item of response.body) expectShape(lineItem, item);
    expect(response.body).toEqual(all.slice(0, 2));
    expectOrdered(all, (item) => item.id, false);
    expect(paginationOf(response)).toEqual({
      total: all.length,
      total_pages: Math.ceil(all.length / 2),
      first_page: 1,
      last_page: Math.ceil(all.length / 2),
      page: 1,
      previous_page: null,
      next_page: 2,
    });
    expect(all.every((item: Json) => item.plan_id === plan.id)).toBe(true);
  });

  it('gives a leased-menu entry to leased offers only', async () => {
    // Prepare
    const items = await allPages(lineItemsPath(customer.orgId, (await highSavingsPlan('aws')).id));

    // Assess
    for (const item of items as Json[]) {
      expect(item.lease_menu_item_id === null).toBe(!item.offer.type.startsWith('leased_'));
    }
  });

  it('sorts on every allowed order_by value, ascending and descending, ties by id', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');

    for (const orderBy of lineItemSortFields) {
      for (const desc of [false, true]) {
        // Act
        const items = await allPages(
          lineItemsPath(customer.orgId, plan.id, `order_by=${orderBy}&desc=${desc}`),
        );

        // Assess
        expect(items.length, orderBy).toBeGreaterThanOrEqual(3);
        expectOrdered(items, lineItemSortKeys[orderBy] as (item: Json) => string | number, desc);
      }
    }
  });

  it('keeps the plan’s own order for order_by=null, reversed when descending', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');

    // Act
    const natural = await allPages(lineItemsPath(customer.orgId, plan.id, 'order_by=null'));
    const reversed = await allPages(lineItemsPath(customer.orgId, plan.id, 'order_by=null&desc=true'));

    // Assess: reservations first, then savings plans, as the plan applies them.
    expect(reversed).toEqual([...natural].reverse());
    const kinds = natural.map((item: Json) => (item.offer.type.endsWith('_plans') ? 'spend' : 'reservation'));
    expect(kinds).toEqual([...kinds].sort((a, b) => (a === b ? 0 : a === 'reservation' ? -1 : 1)));
  });

  it('answers the last page partly filled, and a page past the end empty with its totals', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const total = (await allPages(lineItemsPath(customer.orgId, plan.id))).length;
    const lastPage = Math.ceil(total / 2);

    // Act
    const last = await get(lineItemsPath(customer.orgId, plan.id, `page=${lastPage}&page_size=2`));
    const past = await get(lineItemsPath(customer.orgId, plan.id, `page=${lastPage + 3}&page_size=2`));

    // Assess
    expect(last.body).toHaveLength(total - 2 * (lastPage - 1));
    expect(paginationOf(last)).toMatchObject({
      page: lastPage,
      next_page: null,
      previous_page: lastPage - 1,
    });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(paginationOf(past)).toEqual({
      total,
      total_pages: lastPage,
      first_page: 1,
      last_page: lastPage,
      page: lastPage + 3,
      previous_page: lastPage,
      next_page: null,
    });
  });

  it('answers an empty first page for a plan without line items', async () => {
    // Prepare
    const [plan] = await defaultPlans('azure', emptyOrgId, partner);

    // Act
    const response = await get(lineItemsPath(emptyOrgId, plan.id), partner);

    // Assess
    expect(response.body).toEqual([]);
    expect(paginationOf(response)).toEqual({
      total: 0,
      total_pages: 0,
      first_page: 1,
      last_page: 1,
      page: 1,
      previous_page: null,
      next_page: null,
    });
  });

  it('lists every line item for the default segment and none for another', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const purchasePlan = (await get(purchasePlanPath(customer.orgId, 'aws'))).body;
    const all = await allPages(lineItemsPath(customer.orgId, plan.id));

    // Act
    const inSegment = await allPages(
      lineItemsPath(customer.orgId, plan.id, `segment_id=${purchasePlan.segment.id}`),
    );
    const elsewhere = await allPages(lineItemsPath(customer.orgId, plan.id, `segment_id=${randomUUID()}`));

    // Assess
    expect(inSegment).toEqual(all);
    expect(elsewhere).toEqual([]);
  });

  it('lists the line items the given resource matches belong to', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const [first, second] = await allPages(lineItemsPath(customer.orgId, plan.id));
    const matchOf = async (item: Json) =>
      (
        await get(
          matchesPath(customer.orgId, plan.id, `${wholeLookback}&line_item_ids=${item.id}&page_size=1`),
        )
      ).body[0];
    const [firstMatch, secondMatch] = [await matchOf(first), await matchOf(second)];

    // Act
    const one = await allPages(lineItemsPath(customer.orgId, plan.id, `resource_match_ids=${firstMatch.id}`));
    const both = await allPages(
      lineItemsPath(
        customer.orgId,
        plan.id,
        `resource_match_ids=${firstMatch.id}&resource_match_ids=${secondMatch.id},${randomUUID()}`,
      ),
    );
    const unknown = await allPages(
      lineItemsPath(customer.orgId, plan.id, `resource_match_ids=${randomUUID()}`),
    );

    // Assess
    expect(one).toEqual([first]);
    expect(both).toEqual([first, second]);
    expect(unknown).toEqual([]);
  });

  it('answers 422 naming each bad paging, sorting or filter parameter', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const cases: [string, string][] = [
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page=0', 'page'],
      ['page=two', 'page'],
      ['order_by=price', 'order_by'],
      ['desc=yes', 'desc'],
      ['segment_id=default', 'segment_id'],
      ['resource_match_ids=not-a-uuid', 'resource_match_ids.0'],
      ['pagesize=10', 'pagesize'],
    ];

    for (const [query, field] of cases) {
      // Act
      const response = await get(lineItemsPath(customer.orgId, plan.id, query));

      // Assess
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors), query).toEqual([field]);
    }
  });

  it('answers 404 for an unknown plan and for a plan of another org', async () => {
    // Prepare
    const [emptyOrgPlan] = await defaultPlans('azure', emptyOrgId, partner);

    // Act
    const unknown = await get(lineItemsPath(customer.orgId, randomUUID()));
    const otherOrgs = await get(lineItemsPath(customer.orgId, emptyOrgPlan.id));

    // Assess
    expect([unknown.status, otherOrgs.status]).toEqual([404, 404]);
    expect(otherOrgs.body.message).toBe(`Commitment plan ${emptyOrgPlan.id} not found`);
  });
});

describe('resource matches (#9)', () => {
  it('adds up each line item’s matches over the whole lookback to the line item’s figures', async () => {
    for (const provider of ['aws', 'gcp']) {
      const plan = await highSavingsPlan(provider);
      for (const item of (await allPages(lineItemsPath(customer.orgId, plan.id))) as Json[]) {
        // Act
        const matches = await allPages(
          matchesPath(customer.orgId, plan.id, `${wholeLookback}&line_item_ids=${item.id}`),
        );

        // Assess
        expect(matches.length).toBeGreaterThan(0);
        for (const match of matches) expectShape(resourceMatch, match);
        expect(sum(matches, 'covered_ondemand_cost')).toBeCloseTo(item.covered_ondemand_cost, 9);
        expect(sum(matches, 'average_savings')).toBeCloseTo(item.savings, 9);
        expect(sum(matches, 'before_ondemand_cost')).toBeCloseTo(item.before_ondemand_cost, 9);
        expect(sum(matches, 'before_reserved_cost')).toBeCloseTo(item.before_reserved_cost, 9);
      }
    }
  });

  it('sorts by covered on-demand cost, descending, 20 a page by default', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');

    // Act
    const response = await get(matchesPath(customer.orgId, plan.id, wholeLookback));

    // Assess
    expect(response.body).toHaveLength(Math.min(20, paginationOf(response).total));
    expect(paginationOf(response).total).toBe(15);
    expectOrdered(response.body, (match) => match.covered_ondemand_cost, true);
  });

  it('sorts on every allowed order_by value, ascending and descending, ties by id', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');

    for (const orderBy of resourceMatchSortFields) {
      for (const desc of [false, true]) {
        // Act
        const matches = await allPages(
          matchesPath(customer.orgId, plan.id, `${wholeLookback}&order_by=${orderBy}&desc=${desc}`),
        );

        // Assess
        expect(matches.length, orderBy).toBeGreaterThanOrEqual(3);
        expectOrdered(matches, resourceMatchSortKeys[orderBy] as (match: Json) => string | number, desc);
      }
    }
  });

  it('answers the figures of the days asked for, computed again over those hours', async () => {
    // Prepare: the always-on n2-standard-4 and n2-standard-2 groups use the same every hour, so a
    // week has the lookback's hourly figures; the bursting n2-standard-8 group does not.
    const plan = await highSavingsPlan('gcp');
    const query = (days: string) => `${days}&order_by=id&desc=false`;
    const whole = await allPages(matchesPath(customer.orgId, plan.id, query(wholeLookback)));

    // Act
    const week = await allPages(
      matchesPath(customer.orgId, plan.id, query('start_date=2026-10-05&end_date=2026-10-11')),
    );
    const clipped = await allPages(
      matchesPath(customer.orgId, plan.id, query('start_date=2026-09-01&end_date=2026-10-30')),
    );

    // Assess
    expect(week.map((match) => match.id)).toEqual(whole.map((match) => match.id));
    for (const [k, match] of week.entries() as Iterable<[number, Json]>) {
      expect(match.resource).toMatchObject({ usage_start: '2026-10-05', usage_end: '2026-10-11' });
      if (match.resource.instance_type === 'n2-standard-8') continue;
      expect(match.covered_ondemand_cost).toBeCloseTo((whole[k] as Json).covered_ondemand_cost, 9);
      expect(match.average_savings).toBeCloseTo((whole[k] as Json).average_savings, 9);
    }
    expect(clipped).toEqual(whole);
  });

  it('answers an empty list for days outside the lookback', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');

    // Act
    const response = await get(
      matchesPath(customer.orgId, plan.id, 'start_date=2026-11-01&end_date=2026-11-07'),
    );

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(paginationOf(response)).toMatchObject({ total: 0, total_pages: 0 });
  });

  it('answers 422 when a date is missing or malformed, or page_size is outside 1..100', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');
    const cases: [string, string][] = [
      ['end_date=2026-10-30', 'start_date'],
      ['start_date=2026-10-01', 'end_date'],
      ['start_date=2026-10-1&end_date=2026-10-30', 'start_date'],
      ['start_date=2026-10-01&end_date=30.10.2026', 'end_date'],
      ['start_date=2026-10-10&end_date=2026-10-01', 'end_date'],
      [`${wholeLookback}&page_size=0`, 'page_size'],
      [`${wholeLookback}&page_size=101`, 'page_size'],
      [`${wholeLookback}&line_item_ids=1`, 'line_item_ids.0'],
    ];

    for (const [query, field] of cases) {
      // Act
      const response = await get(matchesPath(customer.orgId, plan.id, query));

      // Assess
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors), query).toEqual([field]);
    }
  });

  it('answers 404 for an unknown plan', async () => {
    expect((await get(matchesPath(customer.orgId, randomUUID(), wholeLookback))).status).toBe(404);
  });
});

describe('commitments chart (#10)', () => {
  const day = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  it('answers a daily point for each of the last 30 days by default', async () => {
    // Prepare
    const today = new Date().toISOString().slice(0, 10);

    // Act
    const response = await get(chartPath(customer.orgId));

    // Assess
    expect(response.status).toBe(200);
    expectShape(chartResponse, response.body);
    const dates = response.body.data.map((point: Json) => point.date);
    expect(dates).toHaveLength(30);
    expect(dates[29]).toBe(today);
    expect(dates[0]).toBe(day(today, -29));
    expect(response.body.data.every((point: Json) => point.is_projection === false)).toBe(true);
  });

  it('values the commitments still to be consumed, by day', async () => {
    // Act: December 2026, when both commitments run.
    const response = await get(
      chartPath(customer.orgId, 'provider=aws&start_date=2026-12-01&end_date=2026-12-31'),
    );

    // Assess: the reservation (0.124 an hour) runs to January 1, 2027, the savings plan (0.50) to
    // March 1, 2027: on December 1, 31 and 90 days of them remain.
    const [first] = response.body.data;
    expect(response.body.data).toHaveLength(31);
    expect(first.date).toBe('2026-12-01');
    expect(first.remaining_commit).toBeCloseTo(0.124 * 31 * 24 + 0.5 * 90 * 24, 6);
    expect(first.locked_commit).toBeCloseTo(first.remaining_commit, 6);
    expect(first.unlocked_commit).toBeCloseTo(0, 6);
    expect(first.utilization).toBeGreaterThan(0);
    expect(first.utilization).toBeLessThanOrEqual(1);
  });

  it('answers monthly points beyond 92 days, projected after today', async () => {
    // Act
    const response = await get(chartPath(customer.orgId, 'start_date=2026-06-15&end_date=2027-06-14'));

    // Assess
    const points = response.body.data as Json[];
    expect(points.map((point) => point.date)).toEqual([
      '2026-06-15',
      ...['07', '08', '09', '10', '11', '12'].map((month) => `2026-${month}-01`),
      ...['01', '02', '03', '04', '05', '06'].map((month) => `2027-${month}-01`),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    for (const point of points) expect(point.is_projection).toBe(point.date > today);
  });

  it('charts only the commitments and usage the filter selects', async () => {
    // Prepare
    const december = 'start_date=2026-12-01&end_date=2026-12-01';
    const filter = (criteria: unknown) => `filter=${encodeURIComponent(JSON.stringify(criteria))}`;

    // Act
    const [all, reservations, otherAccount, gcp] = await Promise.all([
      get(chartPath(customer.orgId, december)),
      get(
        chartPath(
          customer.orgId,
          `${december}&${filter({ field: 'contract_type', op: 'eq', value: 'standard_ris' })}`,
        ),
      ),
      get(
        chartPath(
          customer.orgId,
          `${december}&${filter([{ field: 'account_id', op: 'in', value: ['222222222222'] }])}`,
        ),
      ),
      get(chartPath(customer.orgId, `${december}&provider=gcp`)),
    ]);

    // Assess
    const remaining = (response: ApiResponse) => response.body.data[0].remaining_commit;
    expect(remaining(all)).toBeCloseTo(0.124 * 31 * 24 + 0.5 * 90 * 24, 6);
    expect(remaining(reservations)).toBeCloseTo(0.124 * 31 * 24, 6);
    expect(remaining(otherAccount)).toBe(0);
    expect(remaining(gcp)).toBe(0);
  });

  it('answers 422 naming a bad filter, provider or range', async () => {
    // Prepare
    const cases: [string, string][] = [
      ['filter=not-json', 'filter'],
      [
        `filter=${encodeURIComponent(JSON.stringify({ field: 'color', op: 'eq', value: 'red' }))}`,
        'filter.field',
      ],
      ['provider=oracle', 'provider'],
      ['start_date=2026-10-10&end_date=2026-10-01', 'end_date'],
      ['start_date=2020-01-01&end_date=2035-01-01', 'end_date'],
    ];

    for (const [query, field] of cases) {
      // Act
      const response = await get(chartPath(customer.orgId, query));

      // Assess
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors), query).toEqual([field]);
    }
  });
});

describe('recommended purchase plan (#12)', () => {
  it('answers the recommended plan as a v2 purchase plan with its figures', async () => {
    // Prepare
    const recommended = (await get(plansPath(customer.orgId, 'recommended', 'aws'))).body;

    // Act
    const response = await get(purchasePlanPath(customer.orgId, 'aws'), partner);

    // Assess
    expect(response.status).toBe(200);
    expectShape(recommendedPurchasePlan, response.body);
    expect(response.body).toMatchObject({
      id: recommended.id,
      org_id: customer.orgId,
      name: 'Recommended',
      status: 'new',
      is_calculating: false,
      is_recommended: true,
      savings: recommended.savings_hourly,
      covered_ondemand_cost: recommended.covered_ondemand_cost_hourly,
      segment: { provider: 'aws', is_default: true },
    });
    // The lookback: October 1 to 30.
    expect(Date.parse(response.body.start_date)).toBe(Date.parse('2026-10-01T00:00:00Z'));
    expect(Date.parse(response.body.end_date)).toBe(Date.parse('2026-10-31T00:00:00Z'));
  });

  it('answers 204 for a provider without a recommended plan, and for kubernetes and unknown', async () => {
    for (const provider of ['azure', 'kubernetes', 'unknown']) {
      // Act
      const response = await get(purchasePlanPath(customer.orgId, provider));

      // Assess
      expect(response.status, provider).toBe(204);
      expect(response.body).toBe('');
    }
  });

  it('answers 422 naming `provider` when it is not one of the five', async () => {
    // Act
    const response = await get(purchasePlanPath(customer.orgId, 'oracle'));

    // Assess
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['provider']);
  });
});

describe('tenant isolation', () => {
  it('lets the partner read its child orgs’ plans', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');

    // Act
    const responses = await Promise.all([
      get(plansPath(customer.orgId, 'default', 'gcp'), partner),
      get(lineItemsPath(customer.orgId, plan.id), partner),
      get(matchesPath(customer.orgId, plan.id, wholeLookback), partner),
      get(chartPath(customer.orgId), partner),
    ]);

    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  });

  it('answers 404 to another partner and to users of another org, for every plan endpoint', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');
    const paths = [
      plansPath(customer.orgId, 'default', 'gcp'),
      plansPath(customer.orgId, 'recommended', 'gcp'),
      lineItemsPath(customer.orgId, plan.id),
      matchesPath(customer.orgId, plan.id, wholeLookback),
      chartPath(customer.orgId),
      purchasePlanPath(customer.orgId, 'gcp'),
    ];

    for (const caller of [otherPartner, otherUser]) {
      for (const path of paths) {
        // Act
        const response = await get(path, caller);

        // Assess
        expect(response.status, path).toBe(404);
        expect(response.body.message).toBe(`Organization ${customer.orgId} not found`);
      }
    }
  });

  it('answers 404 for a plan asked for under another org the caller may read', async () => {
    // Prepare: the partner may read both orgs, but the plan is the customer's.
    const plan = await highSavingsPlan('gcp');

    // Act
    const response = await get(lineItemsPath(emptyOrgId, plan.id), partner);

    // Assess
    expect(response.status).toBe(404);
  });
});

describe('OpenAPI document', () => {
  // Runs last: it reads what every test before it was answered.
  it('documents every status the plan operations answered in this file', async () => {
    // Act
    const undocumented = await undocumentedAnswers(answered);

    // Assess
    expect(answered.length).toBeGreaterThan(100);
    expect(undocumented).toEqual([]);
  });
});
