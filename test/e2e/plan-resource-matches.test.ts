import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resourceMatchSortFields } from '../../shared/contract/plan-queries';
import { resourceMatchSortKeys } from '../../shared/contract/plan-views';
import { resourceMatch } from '../../shared/contract/resource-matches';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import {
  expectOrdered,
  expectShape,
  type Json,
  lineItemsPath,
  matchesPath,
  paginationOf,
  sum,
  usePlannedCustomer,
  wholeLookback,
} from '../support/planned-customer';

/**
 * The plan endpoints over HTTP against the real local server: a plan's resource matches (#9): figures over the lookback, paging, sorting and refusals. The customer org's usage
 * and commitments come through the operator CLI (test/support/planned-customer.ts); the tests only
 * read.
 */

const planned = usePlannedCustomer();
const { get, allPages, highSavingsPlan } = planned;

describe('resource matches (#9)', () => {
  it('adds up each line item’s matches over the whole lookback to the line item’s figures', async () => {
    for (const provider of ['aws', 'gcp']) {
      const plan = await highSavingsPlan(provider);
      for (const item of (await allPages(lineItemsPath(planned.customer.orgId, plan.id))) as Json[]) {
        // Act
        const matches = await allPages(
          matchesPath(planned.customer.orgId, plan.id, `${wholeLookback}&line_item_ids=${item.id}`),
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
    const response = await get(matchesPath(planned.customer.orgId, plan.id, wholeLookback));

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
          matchesPath(planned.customer.orgId, plan.id, `${wholeLookback}&order_by=${orderBy}&desc=${desc}`),
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
    const whole = await allPages(matchesPath(planned.customer.orgId, plan.id, query(wholeLookback)));

    // Act
    const week = await allPages(
      matchesPath(planned.customer.orgId, plan.id, query('start_date=2026-10-05&end_date=2026-10-11')),
    );
    const clipped = await allPages(
      matchesPath(planned.customer.orgId, plan.id, query('start_date=2026-09-01&end_date=2026-10-30')),
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
      matchesPath(planned.customer.orgId, plan.id, 'start_date=2026-11-01&end_date=2026-11-07'),
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
      const response = await get(matchesPath(planned.customer.orgId, plan.id, query));

      // Assess
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors), query).toEqual([field]);
    }
  });

  it('answers 404 for an unknown plan', async () => {
    expect((await get(matchesPath(planned.customer.orgId, randomUUID(), wholeLookback))).status).toBe(404);
  });
});

describe('OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(planned.answered, 1);
});
