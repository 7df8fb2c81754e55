import { isDeepStrictEqual } from 'node:util';
import type { ExistingCommitment, Provider } from '../domain/engine/shapes/model';
import { awsOwnedCommitmentIds } from '../domain/usage-sources/aws-owned-commitments';
import { azureOwnedCommitmentIds } from '../domain/usage-sources/azure-owned-commitments';
import { ownedCommitmentsToWrite, type UsageSyncState } from '../domain/usage-sources/sync-state';
import { inImportSessions } from './import-sessions';
import type { AppContext } from './ports';

/**
 * Makes the account's owned commitments the org's provider-sourced ones: the previous sync's are
 * replaced; commitments stored another way (an imported commitments file, the service's own
 * purchases) are kept, and a describe answer that is one of them is not written again (a
 * completed purchase is matched by the provider ids it recorded). Answers the ids written.
 */
export async function storeOwnedCommitments(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  ownerId: string,
  owned: readonly ExistingCommitment[],
  before: UsageSyncState | null,
): Promise<string[]> {
  const previous = new Set(before?.commitmentIds ?? []);
  const stored = await ctx.repos.commitments.listCommitments(orgId, provider);
  const storedIds = new Set(stored.map((commitment) => commitment.id));
  const purchasedIds = new Set(
    (await ctx.repos.purchases.listByOrg(orgId))
      .filter((purchase) => purchase.provider === provider && purchase.status === 'completed')
      .flatMap((purchase) =>
        purchase.providerIds.flatMap((id) => ownedCommitmentIdsOf(provider, ownerId, id)),
      ),
  );
  const written = ownedCommitmentsToWrite(owned, { storedIds, previousSyncIds: previous, purchasedIds });
  const writtenIds = new Set(written.map((commitment) => commitment.id));
  // What the account owns is what is stored already: no session, so the plan-inputs version is
  // not raised and the plans computed from the same inputs stay current (docs/usage-sync.md).
  if (sameOwnedCommitments(stored, previous, written)) return [...writtenIds];
  await inImportSessions(ctx, orgId, [provider], {}, async ([session]) => {
    for (const commitment of written) await ctx.repos.commitments.putCommitment(orgId, commitment);
    await ctx.repos.commitments.deleteCommitments(
      orgId,
      provider,
      [...previous].filter((id) => !writtenIds.has(id)),
    );
    await session?.finish({ kind: 'commitments', commitments: written.length });
  });
  return [...writtenIds];
}

/**
 * Whether writing `written` and deleting the rest of the previous sync's commitments would leave
 * the stored commitments as they are: each written one stored with the same content, and none of
 * the previous sync's left to delete.
 */
function sameOwnedCommitments(
  stored: readonly ExistingCommitment[],
  previous: ReadonlySet<string>,
  written: readonly ExistingCommitment[],
): boolean {
  const storedById = new Map(stored.map((commitment) => [commitment.id, commitment]));
  const writtenIds = new Set(written.map((commitment) => commitment.id));
  const toDelete = [...previous].filter((id) => !writtenIds.has(id) && storedById.has(id));
  return (
    toDelete.length === 0 &&
    written.every((commitment) => {
      const same = storedById.get(commitment.id);
      return same !== undefined && isDeepStrictEqual(plainData(same), plainData(commitment));
    })
  );
}

/** A record as stored: without its undefined properties. */
const plainData = (value: object): unknown => JSON.parse(JSON.stringify(value));

/**
 * The owned-commitment ids a completed purchase's provider id stands for: the ids the describe
 * answers (AWS) or the ARM reads (Azure: a purchase records its order and the reservation or
 * savings plan ids ARM answered) would give it, so the sync does not count it twice.
 */
function ownedCommitmentIdsOf(provider: Provider, ownerId: string, providerId: string): string[] {
  if (provider === 'aws') return awsOwnedCommitmentIds(ownerId, providerId);
  return provider === 'azure' ? azureOwnedCommitmentIds(providerId) : [];
}
