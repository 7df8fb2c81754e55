import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { lineItemSortFields } from '../../shared/contract/plan-queries';
import { lineItemSortKeys } from '../../shared/contract/plan-views';
import { lineItem } from '../../shared/contract/plans';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import {
  expectOrdered,
  expectShape,
  type Json,
  lineItemsPath,
  matchesPath,
  paginationOf,
  purchasePlanPath,
  usePlannedCustomer,
  wholeLookback,
} from '../support/planned-customer';

/**
 * The plan endpoints over HTTP against the real local server: a plan's line items (#7): paging, sorting, filters and refusals. The customer org's usage
 * and commitments come through the operator CLI (test/support/planned-customer.ts); the tests only
 * read.
 */

const planned = usePlannedCustomer();
const { get, allPages, defaultPlans, highSavingsPlan } = planned;

describe('line items (#7)', () => {
  it('pages the line items by id by default, describing the pages in X-Pagination', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const all = await allPages(lineItemsPath(planned.customer.orgId, plan.id));

    // Act
    const response = await get(lineItemsPath(planned.customer.orgId, plan.id, 'page_size=2'));

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
    const items = await allPages(lineItemsPath(planned.customer.orgId, (await highSavingsPlan('aws')).id));

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
          lineItemsPath(planned.customer.orgId, plan.id, `order_by=${orderBy}&desc=${desc}`),
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
    const natural = await allPages(lineItemsPath(planned.customer.orgId, plan.id, 'order_by=null'));
    const reversed = await allPages(
      lineItemsPath(planned.customer.orgId, plan.id, 'order_by=null&desc=true'),
    );

    // Assess: reservations first, then savings plans, as the plan applies them.
    expect(reversed).toEqual([...natural].reverse());
    const kinds = natural.map((item: Json) => (item.offer.type.endsWith('_plans') ? 'spend' : 'reservation'));
    expect(kinds).toEqual([...kinds].sort((a, b) => (a === b ? 0 : a === 'reservation' ? -1 : 1)));
  });

  it('answers the last page partly filled, and a page past the end empty with its totals', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const total = (await allPages(lineItemsPath(planned.customer.orgId, plan.id))).length;
    const lastPage = Math.ceil(total / 2);

    // Act
    const last = await get(lineItemsPath(planned.customer.orgId, plan.id, `page=${lastPage}&page_size=2`));
    const past = await get(
      lineItemsPath(planned.customer.orgId, plan.id, `page=${lastPage + 3}&page_size=2`),
    );

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
    const [plan] = await defaultPlans('azure', planned.emptyOrgId, planned.partner);

    // Act
    const response = await get(lineItemsPath(planned.emptyOrgId, plan.id), planned.partner);

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
    const purchasePlan = (await get(purchasePlanPath(planned.customer.orgId, 'aws'))).body;
    const all = await allPages(lineItemsPath(planned.customer.orgId, plan.id));

    // Act
    const inSegment = await allPages(
      lineItemsPath(planned.customer.orgId, plan.id, `segment_id=${purchasePlan.segment.id}`),
    );
    const elsewhere = await allPages(
      lineItemsPath(planned.customer.orgId, plan.id, `segment_id=${randomUUID()}`),
    );

    // Assess
    expect(inSegment).toEqual(all);
    expect(elsewhere).toEqual([]);
  });

  it('lists the line items the given resource matches belong to', async () => {
    // Prepare
    const plan = await highSavingsPlan('aws');
    const [first, second] = await allPages(lineItemsPath(planned.customer.orgId, plan.id));
    const matchOf = async (item: Json) =>
      (
        await get(
          matchesPath(
            planned.customer.orgId,
            plan.id,
            `${wholeLookback}&line_item_ids=${item.id}&page_size=1`,
          ),
        )
      ).body[0];
    const [firstMatch, secondMatch] = [await matchOf(first), await matchOf(second)];

    // Act
    const one = await allPages(
      lineItemsPath(planned.customer.orgId, plan.id, `resource_match_ids=${firstMatch.id}`),
    );
    const both = await allPages(
      lineItemsPath(
        planned.customer.orgId,
        plan.id,
        `resource_match_ids=${firstMatch.id}&resource_match_ids=${secondMatch.id},${randomUUID()}`,
      ),
    );
    const unknown = await allPages(
      lineItemsPath(planned.customer.orgId, plan.id, `resource_match_ids=${randomUUID()}`),
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
      const response = await get(lineItemsPath(planned.customer.orgId, plan.id, query));

      // Assess
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors), query).toEqual([field]);
    }
  });

  it('answers 404 for an unknown plan and for a plan of another org', async () => {
    // Prepare
    const [emptyOrgPlan] = await defaultPlans('azure', planned.emptyOrgId, planned.partner);

    // Act
    const unknown = await get(lineItemsPath(planned.customer.orgId, randomUUID()));
    const otherOrgs = await get(lineItemsPath(planned.customer.orgId, emptyOrgPlan.id));

    // Assess
    expect([unknown.status, otherOrgs.status]).toEqual([404, 404]);
    expect(otherOrgs.body.message).toBe(`Commitment plan ${emptyOrgPlan.id} not found`);
  });
});

describe('OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(planned.answered, 1);
});
