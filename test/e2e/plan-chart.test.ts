import { describe, expect, it } from 'vitest';
import { chartResponse } from '../../shared/contract/chart';
import type { ApiResponse } from '../support/api-client';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { chartPath, expectShape, type Json, usePlannedCustomer } from '../support/planned-customer';

/**
 * The plan endpoints over HTTP against the real local server: the commitments chart (#10): daily and monthly points, filters and refusals. The customer org's usage
 * and commitments come through the operator CLI (test/support/planned-customer.ts); the tests only
 * read.
 */

const planned = usePlannedCustomer();
const { get } = planned;

describe('commitments chart (#10)', () => {
  const day = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  it('answers a daily point for each of the last 30 days by default', async () => {
    // Prepare
    const today = new Date().toISOString().slice(0, 10);

    // Act
    const response = await get(chartPath(planned.customer.orgId));

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
      chartPath(planned.customer.orgId, 'provider=aws&start_date=2026-12-01&end_date=2026-12-31'),
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
    const response = await get(
      chartPath(planned.customer.orgId, 'start_date=2026-06-15&end_date=2027-06-14'),
    );

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
      get(chartPath(planned.customer.orgId, december)),
      get(
        chartPath(
          planned.customer.orgId,
          `${december}&${filter({ field: 'contract_type', op: 'eq', value: 'standard_ris' })}`,
        ),
      ),
      get(
        chartPath(
          planned.customer.orgId,
          `${december}&${filter([{ field: 'account_id', op: 'in', value: ['222222222222'] }])}`,
        ),
      ),
      get(chartPath(planned.customer.orgId, `${december}&provider=gcp`)),
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
      const response = await get(chartPath(planned.customer.orgId, query));

      // Assess
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors), query).toEqual([field]);
    }
  });
});

describe('OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(planned.answered, 1);
});
