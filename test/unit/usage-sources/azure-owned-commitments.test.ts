import { describe, expect, it } from 'vitest';
import {
  azureReservationCommitment,
  azureSavingsPlanCommitment,
} from '../../../shared/domain/usage-sources/azure-owned-commitments';

/** Owned Azure commitments from ARM's answers (shaped as the REST API reference's examples). */
const subscriptionId = '0d6a1c2e-3b4f-4a5d-8e9f-112233445566';

describe('an Azure reservation', () => {
  const reservation = {
    id: '/providers/microsoft.capacity/reservationOrders/a075419f-44cc-497f-b68a-14ee811d48b9/reservations/27c9f3d5-4fa1-4e8b-a8b7-9f9c7a9f2c1e',
    name: 'a075419f-44cc-497f-b68a-14ee811d48b9/27c9f3d5-4fa1-4e8b-a8b7-9f9c7a9f2c1e',
    type: 'microsoft.capacity/reservationOrders/reservations',
    location: 'westeurope',
    sku: { name: 'Standard_D4s_v5' },
    properties: {
      reservedResourceType: 'VirtualMachines',
      instanceFlexibility: 'On',
      displayName: 'VM_RI_11-01-2026_10-00',
      appliedScopeType: 'Single',
      appliedScopes: [`/subscriptions/${subscriptionId}`],
      quantity: 2,
      provisioningState: 'Succeeded',
      displayProvisioningState: 'Succeeded',
      effectiveDateTime: '2026-11-01T10:00:05.000Z',
      benefitStartTime: '2026-11-01T10:00:00.000Z',
      expiryDateTime: '2027-11-01T10:00:00.000Z',
      term: 'P1Y',
      billingPlan: 'Monthly',
    },
  };

  it('maps a monthly-paid reservation: its share of the order spread over the term hours', () => {
    // Act: the order of 4 instances cost 3,504 in all; this reservation holds 2 of them.
    const mapped = azureReservationCommitment(
      reservation,
      { amount: 3504, quantity: 4 },
      'other-subscription',
    );

    // Assess: 3,504 x 2 / 4 = 1,752 over 8,760 h = 0.2 per hour.
    expect(mapped).toMatchObject({
      provider: 'azure',
      accountId: subscriptionId,
      region: 'westeurope',
      contractType: 'vm',
      instanceType: 'Standard_D4s_v5',
      quantity: 2,
      hourlyCommitment: 0,
      upfrontCost: 0,
      recurringCost: 0.2,
      start: '2026-11-01T10:00:00Z',
      end: '2027-11-01T10:00:00Z',
      paymentOption: 'No Upfront',
    });
  });

  it('maps a shared, upfront-paid reservation to the subscription read, with its share up front', () => {
    // Prepare
    const shared = {
      ...reservation,
      properties: {
        ...reservation.properties,
        appliedScopeType: 'Shared',
        appliedScopes: null,
        billingPlan: 'Upfront',
      },
    };

    // Act
    const mapped = azureReservationCommitment(shared, { amount: 3504, quantity: 2 }, subscriptionId);

    // Assess
    expect(mapped).toMatchObject({
      accountId: subscriptionId,
      upfrontCost: 3504,
      recurringCost: 0,
      paymentOption: 'All Upfront',
    });
  });

  it('leaves out reservations not in force or not of virtual machines', () => {
    const withProperties = (properties: object) => ({
      ...reservation,
      properties: { ...reservation.properties, ...properties },
    });
    expect(
      azureReservationCommitment(
        withProperties({ provisioningState: 'Cancelled' }),
        { amount: 1, quantity: 1 },
        subscriptionId,
      ),
    ).toBeNull();
    expect(
      azureReservationCommitment(
        withProperties({ reservedResourceType: 'SqlDatabases' }),
        { amount: 1, quantity: 1 },
        subscriptionId,
      ),
    ).toBeNull();
  });
});

describe('an Azure savings plan', () => {
  const plan = {
    id: '/providers/Microsoft.BillingBenefits/savingsPlanOrders/20000000-0000-0000-0000-000000000000/savingsPlans/30000000-0000-0000-0000-000000000000',
    sku: { name: 'Compute_Savings_Plan' },
    properties: {
      displayName: 'Compute_SavingsPlan_10-28-2026_11-50',
      provisioningState: 'Succeeded',
      billingPlan: 'P1M',
      term: 'P3Y',
      appliedScopeType: 'Shared',
      commitment: { grain: 'Hourly', currencyCode: 'USD', amount: 0.5 },
      effectiveDateTime: '2026-10-28T11:50:00.000Z',
      benefitStartTime: '2026-10-28T11:50:00.000Z',
      expiryDateTime: '2029-10-28T11:50:00.000Z',
    },
  };

  it('maps a monthly plan: the hourly commitment paid each hour, in every region', () => {
    expect(azureSavingsPlanCommitment(plan, subscriptionId)).toMatchObject({
      provider: 'azure',
      accountId: subscriptionId,
      region: '',
      contractType: 'compute_plans',
      instanceType: null,
      hourlyCommitment: 0.5,
      upfrontCost: 0,
      recurringCost: 0.5,
      start: '2026-10-28T11:50:00Z',
      end: '2029-10-28T11:50:00Z',
      paymentOption: 'No Upfront',
    });
  });

  it('maps an upfront plan: the whole term paid at purchase', () => {
    // Prepare
    const upfront = { ...plan, properties: { ...plan.properties, billingPlan: undefined } };

    // Act
    const mapped = azureSavingsPlanCommitment(upfront, subscriptionId);

    // Assess: 0.5 $/h x 3 x 8,760 h = 13,140.
    expect(mapped).toMatchObject({ upfrontCost: 13_140, recurringCost: 0, paymentOption: 'All Upfront' });
  });

  it('leaves out a plan not in force', () => {
    expect(
      azureSavingsPlanCommitment(
        { ...plan, properties: { ...plan.properties, provisioningState: 'Expired' } },
        subscriptionId,
      ),
    ).toBeNull();
  });
});
