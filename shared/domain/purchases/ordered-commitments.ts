import type { ExistingCommitment } from '../engine';
import { commitmentOf, orderedCommitmentOf, type PurchaseCatalog } from './purchase-orders';
import type { PurchaseRecord } from './purchase-record';

/**
 * What an org owns for planning (docs/plan-engine.md, Ordered purchases): the commitments stored
 * (imported, synced from the provider, written by the processor) and every purchase it has
 * ordered that the provider or a guard rail has not refused. A purchase counts from the moment it
 * is ordered, not from its completion: a queued one (a renewal waiting for its start, one whose
 * plan has other purchases still running), one being bought, one an operator must complete.
 * Without that, the next plan buys the same line again.
 *
 * A purchase is left out where a stored commitment is already it, so nothing counts twice:
 * the processor's own write (the record's id), or the provider's answer for it read by a sync or
 * in a commitments file, found by the ids the purchase recorded (`storedIdsOf`: each provider id
 * as it is, and the ids a provider's describe answers give it; an Azure order lists the
 * reservation ids it bought there).
 */
export function ownedForPlanning(
  stored: readonly ExistingCommitment[],
  records: readonly PurchaseRecord[],
  catalog: Pick<PurchaseCatalog, 'offerById' | 'pricedInstances'>,
  storedIdsOf: (record: PurchaseRecord) => readonly string[] = (record) => record.providerIds,
): ExistingCommitment[] {
  const storedIds = new Set(stored.map((commitment) => commitment.id));
  const ordered: ExistingCommitment[] = [];
  for (const record of records) {
    if (record.status === 'failed') continue;
    if (storedIds.has(record.id) || storedIdsOf(record).some((id) => storedIds.has(id))) continue;
    const offer = catalog.offerById(record.offerId);
    // An offer gone from the catalog: the guard rails refuse the purchase (nothing is bought).
    if (!offer || offer.provider !== record.provider) continue;
    ordered.push(
      record.status === 'completed'
        ? commitmentOf(record, offer)
        : orderedCommitmentOf(record, offer, catalog),
    );
  }
  return [...stored, ...ordered];
}
