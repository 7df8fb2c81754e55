import { describe, expect, it } from 'vitest';
import { azureReservationOrderId } from '../../../shared/cloud/marketplace/azure-reservations';
import { azureSavingsPlanAlias } from '../../../shared/cloud/marketplace/azure-savings-plans';
import { PurchaseOutcomeUnknown } from '../../../shared/cloud/marketplace/marketplace';
import {
  armSubscriptionId,
  azurePurchaseRequest,
  computeSavingsPlan,
  dsv5Reservation,
  simulatedArmTenant,
} from '../../support/simulated-arm-tenant';

/**
 * The `azure` marketplace against the simulated tenant's ARM (local/simulated-arm.ts), which keeps
 * what was bought and answers with ARM's documented shapes and errors (docs/purchases.md, Azure).
 */

const reservation = dsv5Reservation();
// Standard_D4s_v5 counts 4 units of Dsv5 (instance-size flexibility ratios): 8 units are 2 instances.
const reservationRequest = azurePurchaseRequest(reservation, 8);

describe('Azure reservations through Microsoft.Capacity', () => {
  it('quotes, PUTs the order named by the client token, polls it to Succeeded and answers its reservation', async () => {
    const arm = simulatedArmTenant();
    const result = await arm.marketplace.purchase(reservationRequest);
    const [order] = arm.reservationOrders();
    const orderId = azureReservationOrderId(reservationRequest.clientToken);
    expect(arm.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /providers/Microsoft.Capacity/reservationOrders/${orderId}`,
      'POST /providers/Microsoft.Capacity/calculatePrice',
      `PUT /providers/Microsoft.Capacity/reservationOrders/${orderId}`,
      `GET /providers/Microsoft.Capacity/reservationOrders/${orderId}`,
      `GET /providers/Microsoft.Capacity/reservationOrders/${orderId}`,
      `GET ${order?.reservation.id}`,
    ]);
    expect(arm.puts()[0]?.body).toMatchObject({
      sku: { name: 'Standard_D4s_v5' },
      location: 'eastus',
      properties: {
        reservedResourceType: 'VirtualMachines',
        billingScopeId: `/subscriptions/${armSubscriptionId}`,
        term: 'P1Y',
        billingPlan: 'Monthly',
        quantity: 2,
        appliedScopeType: 'Shared',
        reservedResourceProperties: { instanceFlexibility: 'On' },
      },
    });
    // Known answer: 8 units at the catalog's hourly price for a year, paid monthly.
    const total = Math.round(reservation.recurring * 8 * 8760 * 100) / 100;
    expect(result).toEqual({
      status: 'completed',
      providerIds: [order?.order.id, order?.reservation.id],
      upfrontCost: 0,
      recurringCost: total / 8760,
      providerQuantity: 2,
    });
    // The wait ARM asked for (Retry-After: 1) before each poll.
    expect(arm.sleeps).toEqual([1000, 1000]);
  });

  it('a second attempt with the same token follows the order the first placed: one order, one PUT', async () => {
    const arm = simulatedArmTenant({
      after: (request) => {
        if (request.method === 'PUT') throw new Error('socket hang up');
      },
    });
    await expect(arm.marketplace.purchase(reservationRequest)).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
    const resumed = azurePurchaseRequest(reservation, 8, 'line-1', {
      earlierAttemptsSince: '2026-11-24T10:00:00Z',
    });
    const again = simulatedArmTenant();
    again.cloud.azure = arm.cloud.azure;
    const result = await again.marketplace.purchase(resumed);
    expect(result.status).toBe('completed');
    expect(arm.reservationOrders()).toHaveLength(1);
    expect([...arm.puts(), ...again.puts()]).toHaveLength(1);
  });

  it('applies the reservation to the buying subscription alone when the org shares by account', async () => {
    const arm = simulatedArmTenant({ single: true });
    await arm.marketplace.purchase(reservationRequest);
    expect(arm.puts()[0]?.body).toMatchObject({
      properties: { appliedScopeType: 'Single', appliedScopes: [`/subscriptions/${armSubscriptionId}`] },
    });
  });

  it('refuses a quote above the planned price by more than the tolerance as price_changed, buying nothing', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { price_factor: 1.02 };
    const result = await arm.marketplace.purchase(reservationRequest);
    expect(result).toMatchObject({ status: 'failed', providerCode: 'price_changed' });
    expect(arm.puts()).toEqual([]);
  });

  it('buys a quote within the tolerance', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { price_factor: 1.009 };
    expect((await arm.marketplace.purchase(reservationRequest)).status).toBe('completed');
  });

  it('names the missing action when the app may not buy (403 AuthorizationFailed)', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().role_assignments = ['Reader', 'Cost Management Reader'];
    const result = await arm.marketplace.purchase(reservationRequest);
    expect(result).toMatchObject({ status: 'failed', providerCode: 'AuthorizationFailed' });
    expect(result.status === 'failed' && result.message).toContain(
      'Microsoft.Capacity/reservationOrders/write',
    );
    expect(arm.reservationOrders()).toEqual([]);
  });

  it.each([
    ['NonsupportedAccountId', 'offer type is not eligible'],
    ['QuotaExceeded', 'raise the quota'],
  ])('refuses with %s and says what to do', async (code, hint) => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { refuse_with: code };
    const result = await arm.marketplace.purchase(reservationRequest);
    expect(result).toMatchObject({ status: 'failed', providerCode: code });
    expect(result.status === 'failed' && result.message).toContain(hint);
    expect(arm.puts()).toEqual([]);
  });

  it('refuses a size the region does not offer (SkuNotAvailable)', async () => {
    const arm = simulatedArmTenant();
    const elsewhere = {
      ...reservation,
      scope: { ...reservation.scope, region: 'antarctica' } as typeof reservation.scope,
    };
    const result = await arm.marketplace.purchase(azurePurchaseRequest(elsewhere, 8));
    expect(result).toMatchObject({ status: 'failed', providerCode: 'SkuNotAvailable' });
  });

  it('waits out throttling as Retry-After asks and buys within the retries', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { throttle: 2 };
    expect((await arm.marketplace.purchase(reservationRequest)).status).toBe('completed');
    expect(arm.requests.filter((request) => request.path.endsWith('calculatePrice'))).toHaveLength(3);
    expect(arm.reservationOrders()).toHaveLength(1);
  });

  it('ends failed, nothing bought, when throttling outlasts the retries', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { throttle: 'always' };
    const result = await arm.marketplace.purchase(reservationRequest);
    expect(result).toMatchObject({ status: 'failed', providerCode: 'TooManyRequests' });
    expect(arm.reservationOrders()).toEqual([]);
  });

  it('ends failed when Azure ends the order Failed', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { order_outcome: 'Failed' };
    expect(await arm.marketplace.purchase(reservationRequest)).toMatchObject({
      status: 'failed',
      providerCode: 'OrderFailed',
    });
  });

  it('leaves the outcome unknown while the order has not ended after the polls (the next attempt follows it)', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { polls: 50 };
    await expect(arm.marketplace.purchase(reservationRequest)).rejects.toBeInstanceOf(PurchaseOutcomeUnknown);
    arm.subscription().purchase = {};
    const order = arm.reservationOrders()[0];
    if (order) order.polls_left = 0;
    const resumed = { ...reservationRequest, earlierAttemptsSince: '2026-11-24T10:00:00Z' };
    expect((await arm.marketplace.purchase(resumed)).status).toBe('completed');
    expect(arm.puts()).toHaveLength(1);
  });

  it('answers an org with no consented tenant failed (NotOnboarded), asking ARM nothing', async () => {
    const arm = simulatedArmTenant();
    const result = await arm.marketplace.purchase({
      ...reservationRequest,
      accountId: 'another-subscription',
    });
    expect(result).toMatchObject({ status: 'failed', providerCode: 'NotOnboarded' });
    expect(arm.requests).toEqual([]);
  });
});

describe('Azure savings plans through Microsoft.BillingBenefits', () => {
  const plan = computeSavingsPlan();
  const planRequest = azurePurchaseRequest(plan, 2.5, 'line-2');

  it('validates, PUTs the alias named by the client token, polls it and its order, and answers the savings plan', async () => {
    const arm = simulatedArmTenant();
    const result = await arm.marketplace.purchase(planRequest);
    const [placed] = arm.savingsPlanOrders();
    expect(arm.puts()).toEqual([
      expect.objectContaining({
        path: `/providers/Microsoft.BillingBenefits/savingsPlanOrderAliases/${azureSavingsPlanAlias(planRequest.clientToken)}`,
        body: expect.objectContaining({
          sku: { name: 'Compute_Savings_Plan' },
          properties: expect.objectContaining({
            term: 'P3Y',
            appliedScopeType: 'Shared',
            commitment: { grain: 'Hourly', currencyCode: 'USD', amount: 2.5 },
          }),
        }),
      }),
    ]);
    // Paid up front: no billing plan; the whole term's commitment.
    expect((arm.puts()[0]?.body as { properties?: object } | undefined)?.properties).not.toHaveProperty(
      'billingPlan',
    );
    expect(result).toEqual({
      status: 'completed',
      providerIds: [placed?.order.id, placed?.plan.id],
      upfrontCost: 2.5 * 3 * 8760,
      recurringCost: 0,
      providerQuantity: 2.5,
    });
    expect((await arm.marketplace.purchase(planRequest)).status).toBe('completed');
    expect(arm.puts()).toHaveLength(1);
    expect(arm.savingsPlanOrders()).toHaveLength(1);
  });

  it('refuses what validation refuses (CustomerCannotPurchaseSavingsPlan), buying nothing', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { refuse_with: 'CustomerCannotPurchaseSavingsPlan' };
    expect(await arm.marketplace.purchase(planRequest)).toMatchObject({
      status: 'failed',
      providerCode: 'CustomerCannotPurchaseSavingsPlan',
    });
    expect(arm.puts()).toEqual([]);
  });

  it('names the savings plan action when the app may not buy', async () => {
    const arm = simulatedArmTenant();
    arm.subscription().purchase = { deny: true };
    const result = await arm.marketplace.purchase(planRequest);
    expect(result.status === 'failed' && result.message).toContain(
      'Microsoft.BillingBenefits/savingsPlanOrders/write',
    );
  });
});
