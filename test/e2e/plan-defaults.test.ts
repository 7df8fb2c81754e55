import { describe, expect, it } from 'vitest';
import { commitmentPlan } from '../../shared/contract/plans';
import { recommendedPurchasePlan } from '../../shared/contract/purchase-plans';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import {
  expectShape,
  type Json,
  lineItemsPath,
  plansPath,
  purchasePlanPath,
  sum,
  usePlannedCustomer,
} from '../support/planned-customer';
import { knownOptimum } from '../support/planned-customer-usage';

/**
 * The plan endpoints over HTTP against the real local server: the default and recommended plans (#5, #6), the known optimum, and the recommended plan as a v2 purchase plan (#12). The customer org's usage
 * and commitments come through the operator CLI (test/support/planned-customer.ts); the tests only
 * read.
 */

const planned = usePlannedCustomer();
const { get, allPages, defaultPlans, highSavingsPlan } = planned;

describe('default plans (#6)', () => {
  it('answers the three default plans of each provider with usage, in the contract’s shape', async () => {
    for (const provider of ['aws', 'gcp']) {
      // Act
      const plans = await defaultPlans(provider);

      // Assess
      expect(plans.map((plan) => plan.name)).toEqual(['Recommended', 'Balanced', 'High Savings']);
      for (const plan of plans) {
        expectShape(commitmentPlan, plan);
        expect(plan).toMatchObject({ org_id: planned.customer.orgId, status: 'new', is_calculating: false });
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
        const items = await allPages(lineItemsPath(planned.customer.orgId, plan.id));

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
    const plans = await defaultPlans('azure', planned.emptyOrgId, planned.partner);

    // Assess
    expect(plans.map((plan) => [plan.name, plan.savings_hourly, plan.max_term])).toEqual([
      ['Recommended', 0, null],
      ['Balanced', 0, null],
      ['High Savings', 0, null],
    ]);
    expect((await allPages(lineItemsPath(planned.emptyOrgId, plans[0].id), planned.partner)).length).toBe(0);
  });

  it('answers 422 naming `provider` when it is missing or not a cloud provider', async () => {
    // Act
    const missing = await get(`/v1/org/${planned.customer.orgId}/commitment-plans/default`);
    const unknown = await get(plansPath(planned.customer.orgId, 'default', 'oracle'));

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
    const response = await get(plansPath(planned.customer.orgId, 'recommended', 'aws'));

    // Assess
    expect(response.status).toBe(200);
    expectShape(commitmentPlan, response.body);
    expect(response.body).toEqual(recommended);
  });

  it('answers 204 with no body when the provider has no recommended plan', async () => {
    // Act
    const response = await get(plansPath(planned.customer.orgId, 'recommended', 'azure'));

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
    const items = await allPages(lineItemsPath(planned.customer.orgId, plan.id));
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

describe('recommended purchase plan (#12)', () => {
  it('answers the recommended plan as a v2 purchase plan with its figures', async () => {
    // Prepare
    const recommended = (await get(plansPath(planned.customer.orgId, 'recommended', 'aws'))).body;

    // Act
    const response = await get(purchasePlanPath(planned.customer.orgId, 'aws'), planned.partner);

    // Assess
    expect(response.status).toBe(200);
    expectShape(recommendedPurchasePlan, response.body);
    expect(response.body).toMatchObject({
      id: recommended.id,
      org_id: planned.customer.orgId,
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
      const response = await get(purchasePlanPath(planned.customer.orgId, provider));

      // Assess
      expect(response.status, provider).toBe(204);
      expect(response.body).toBe('');
    }
  });

  it('answers 422 naming `provider` when it is not one of the five', async () => {
    // Act
    const response = await get(purchasePlanPath(planned.customer.orgId, 'oracle'));

    // Assess
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['provider']);
  });
});

describe('OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(planned.answered, 1);
});
