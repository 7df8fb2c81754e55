import { describe, expect, it } from 'vitest';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import {
  chartPath,
  lineItemsPath,
  matchesPath,
  plansPath,
  purchasePlanPath,
  usePlannedCustomer,
  wholeLookback,
} from '../support/planned-customer';

/**
 * The plan endpoints over HTTP against the real local server: who may read a plan: the partner its child orgs', nobody another tenant's. The customer org's usage
 * and commitments come through the operator CLI (test/support/planned-customer.ts); the tests only
 * read.
 */

const planned = usePlannedCustomer();
const { get, highSavingsPlan } = planned;

describe('tenant isolation', () => {
  it('lets the partner read its child orgs’ plans', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');

    // Act
    const responses = await Promise.all([
      get(plansPath(planned.customer.orgId, 'default', 'gcp'), planned.partner),
      get(lineItemsPath(planned.customer.orgId, plan.id), planned.partner),
      get(matchesPath(planned.customer.orgId, plan.id, wholeLookback), planned.partner),
      get(chartPath(planned.customer.orgId), planned.partner),
    ]);

    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  });

  it('answers 404 to another partner and to users of another org, for every plan endpoint', async () => {
    // Prepare
    const plan = await highSavingsPlan('gcp');
    const paths = [
      plansPath(planned.customer.orgId, 'default', 'gcp'),
      plansPath(planned.customer.orgId, 'recommended', 'gcp'),
      lineItemsPath(planned.customer.orgId, plan.id),
      matchesPath(planned.customer.orgId, plan.id, wholeLookback),
      chartPath(planned.customer.orgId),
      purchasePlanPath(planned.customer.orgId, 'gcp'),
    ];

    for (const caller of [planned.otherPartner, planned.otherUser]) {
      for (const path of paths) {
        // Act
        const response = await get(path, caller);

        // Assess
        expect(response.status, path).toBe(404);
        expect(response.body.message).toBe(`Organization ${planned.customer.orgId} not found`);
      }
    }
  });

  it('answers 404 for a plan asked for under another org the caller may read', async () => {
    // Prepare: the partner may read both orgs, but the plan is the customer's.
    const plan = await highSavingsPlan('gcp');

    // Act
    const response = await get(lineItemsPath(planned.emptyOrgId, plan.id), planned.partner);

    // Assess
    expect(response.status).toBe(404);
  });
});

describe('OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(planned.answered, 1);
});
