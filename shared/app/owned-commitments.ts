import type { Catalog } from '../domain/catalog/catalog';
import type { ExistingCommitment, Provider } from '../domain/engine';
import { ownedForPlanning } from '../domain/purchases/ordered-commitments';
import type { PurchaseRecord } from '../domain/purchases/purchase-record';
import { awsOwnedCommitmentIds } from '../domain/usage-sources/aws-owned-commitments';
import type { ContextWith } from './ports';

/**
 * The commitments an org owns for planning and charting, of one provider or all: the stored ones
 * and the purchases it has ordered and not had refused (docs/plan-engine.md, Ordered purchases).
 * Every plan, resource match and chart reads its commitments here.
 */
export async function ownedCommitments(
  ctx: ContextWith<'commitments' | 'purchases'>,
  orgId: string,
  provider: Provider | undefined,
  catalog: Pick<Catalog, 'offerById' | 'pricedInstances'>,
): Promise<ExistingCommitment[]> {
  const [stored, records] = await Promise.all([
    ctx.repos.commitments.listCommitments(orgId, provider),
    ctx.repos.purchases.listByOrg(orgId),
  ]);
  return ownedCommitmentsOf(stored, records, provider, catalog);
}

/** ownedCommitments of commitments and purchase records already read. */
export function ownedCommitmentsOf(
  stored: readonly ExistingCommitment[],
  records: readonly PurchaseRecord[],
  provider: Provider | undefined,
  catalog: Pick<Catalog, 'offerById' | 'pricedInstances'>,
): ExistingCommitment[] {
  const ordered = records.filter((record) => provider === undefined || record.provider === provider);
  const owners = [...new Set(stored.filter((each) => each.provider === 'aws').map((each) => each.accountId))];
  return ownedForPlanning(stored, ordered, catalog, storedIdsOf(owners));
}

/**
 * ownedCommitmentsOf as the org owned them at `at` (a stored plan's time, docs/plans-api.md,
 * Resource matches): the purchases ordered before it, and the stored commitments but those that
 * are a purchase ordered since (the processor's write of it, or the provider's answer for it read
 * by a sync or a commitments file), which the plan did not own: it may be what bought them.
 */
export function ownedCommitmentsAt(
  stored: readonly ExistingCommitment[],
  records: readonly PurchaseRecord[],
  provider: Provider | undefined,
  catalog: Pick<Catalog, 'offerById' | 'pricedInstances'>,
  at: string,
): ExistingCommitment[] {
  const atMs = Date.parse(at);
  const before = records.filter((record) => Date.parse(record.createdAt) < atMs);
  const owners = [...new Set(stored.filter((each) => each.provider === 'aws').map((each) => each.accountId))];
  const idsOf = storedIdsOf(owners);
  const since = new Set(
    records
      .filter((record) => Date.parse(record.createdAt) >= atMs)
      .flatMap((record) => [record.id, ...idsOf(record)]),
  );
  return ownedCommitmentsOf(
    stored.filter((commitment) => !since.has(commitment.id)),
    before,
    provider,
    catalog,
  );
}

/**
 * The ids a stored commitment that is this purchase may have: a provider id as a commitments file
 * names it, and for AWS the id a sync gives the describe answer of it in any owning account
 * stored (usage-sync-steps.ts writes none of a completed purchase's, this catches the others).
 */
function storedIdsOf(awsOwners: readonly string[]): (record: PurchaseRecord) => readonly string[] {
  return (record) =>
    record.provider === 'aws'
      ? record.providerIds.flatMap((id) => [
          id,
          ...[record.accountId, ...awsOwners].flatMap((owner) => awsOwnedCommitmentIds(owner, id)),
        ])
      : record.providerIds;
}
