import { describe, expect, it } from 'vitest';
import { simulatedArmToken } from '../../../local/simulated-arm';
import {
  type AzureReservation,
  type AzureSavingsPlan,
  azureOwnedCommitmentIds,
  azureReservationCommitment,
  azureSavingsPlanCommitment,
} from '../../../shared/domain/usage-sources/azure-owned-commitments';
import { ownedCommitmentsToWrite } from '../../../shared/domain/usage-sources/sync-state';
import {
  armSubscriptionId,
  armTenantId,
  azurePurchaseRequest,
  computeSavingsPlan,
  dsv5Reservation,
  simulatedArmTenant,
} from '../../support/simulated-arm-tenant';

/**
 * What the service bought through ARM, read back as the sync reads ARM's lists, is the purchase
 * itself (docs/usage-sync.md): its id is one the purchase's provider ids name, so the sync does
 * not write it a second time.
 */
describe('an Azure purchase read back by the sync', () => {
  it('is matched to the purchase by the reservation and savings plan ids ARM answered', async () => {
    // Prepare: a reservation and a savings plan bought through the simulated tenant's ARM.
    const arm = simulatedArmTenant();
    const reservation = await arm.marketplace.purchase(azurePurchaseRequest(dsv5Reservation(), 8));
    const plan = await arm.marketplace.purchase(azurePurchaseRequest(computeSavingsPlan(), 1.5, 'line-2'));
    if (reservation.status !== 'completed' || plan.status !== 'completed') throw new Error('not bought');

    // Act: the tenant's lists as the sync's ARM adapter reads them.
    const list = async (path: string) =>
      (
        (
          await arm.answer({
            method: 'GET',
            path,
            body: undefined,
            authorization: `Bearer ${simulatedArmToken(armTenantId)}`,
          })
        ).body as { value: unknown[] }
      ).value;
    const [listed] = (await list('/providers/Microsoft.Capacity/reservations')) as AzureReservation[];
    const [listedPlan] = (await list(
      '/providers/Microsoft.BillingBenefits/savingsPlans',
    )) as AzureSavingsPlan[];
    const owned = [
      azureReservationCommitment(listed as AzureReservation, { amount: 1, quantity: 2 }, armSubscriptionId),
      azureSavingsPlanCommitment(listedPlan as AzureSavingsPlan, armSubscriptionId),
    ].filter((each) => each !== null);

    // Assess: both are read (in force), and both are the purchases' own.
    expect(owned).toHaveLength(2);
    const purchasedIds = new Set(
      [...reservation.providerIds, ...plan.providerIds].flatMap((id) => azureOwnedCommitmentIds(id)),
    );
    expect(
      ownedCommitmentsToWrite(owned, { storedIds: new Set(), previousSyncIds: new Set(), purchasedIds }),
    ).toEqual([]);
  });

  it('matches an ARM id whatever its case (ARM answers lower-case provider names in ids)', () => {
    const id = '/providers/Microsoft.Capacity/reservationOrders/A/reservations/B';
    expect(azureOwnedCommitmentIds(id)).toEqual(azureOwnedCommitmentIds(id.toLowerCase()));
  });
});
