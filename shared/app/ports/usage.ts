import type { ExistingCommitment, Provider, UsageStream, UsageWindow } from '../../domain/engine';
import type { CoveredHours, ProviderUsage } from '../../domain/usage/imported-usage';
import type { ImportSession, UsageState } from '../../domain/usage/usage-state';

/** Ports of an org's imported inputs: its hourly usage and the commitments it owns. */

/** What an import stored, recorded on the provider's usage state when the import ends. */
export type ImportedInputs =
  | { readonly kind: 'usage'; readonly covered: CoveredHours; readonly resources: number }
  | { readonly kind: 'commitments'; readonly commitments: number }
  /** A repair that dropped the usage after `lastHour`, the last hour with usage left (null: none left). */
  | { readonly kind: 'repair'; readonly lastHour: number | null };

/**
 * An org's hourly usage per provider (one series per resource and month) and the usage state
 * that versions the provider's plan inputs (docs/import.md, docs/data-model.md). An import opens
 * a session (`openImport`), writes, renewing its lease, then finishes its session; run again
 * after a failure, it completes.
 */
export interface UsageRepository {
  /**
   * Opens `session` on the provider's usage state and raises `usageVersion` (plans of earlier
   * versions are stale from now on), provided the state's `version` is still
   * `expectedStateVersion` (null: no state stored). Answers the new usage version, or null,
   * changing nothing, when the state changed since it was read.
   */
  openImport(
    orgId: string,
    provider: Provider,
    session: ImportSession,
    expectedStateVersion: number | null,
  ): Promise<number | null>;
  /** Extends the lease of session `sessionId` to `expiresAt`; false when it no longer owns the state. */
  renewImport(orgId: string, provider: Provider, sessionId: string, expiresAt: string): Promise<boolean>;
  /**
   * Replaces the provider's stored usage on the covered hours: every stored series takes the
   * file's values there (zeros for resources the file does not name); other hours are kept.
   * Awaits `beforeWrites` before each group of writes (with the month they are of): the import
   * reports progress and renews its lease there, and stops by throwing.
   */
  replaceCoveredHours(
    orgId: string,
    usage: ProviderUsage,
    usageVersion: number,
    beforeWrites?: (month: string) => Promise<void>,
  ): Promise<void>;
  /**
   * Whether replacing the provider's stored usage on `usage`'s covered hours would change any
   * stored series (its values or what it says of its resource): read without writing, and
   * stopping at the first difference.
   */
  coveredHoursChange(orgId: string, usage: ProviderUsage): Promise<boolean>;
  /**
   * Ends session `sessionId`, recording what it stored (null: nothing); a ConflictError when
   * another import took the provider's state over since (run this one again).
   */
  finishImport(
    orgId: string,
    provider: Provider,
    sessionId: string,
    imported: ImportedInputs | null,
    at: string,
  ): Promise<UsageState>;
  /**
   * Raises the provider's `usageVersion` because something else its plans are computed from
   * changed (the org's sharing scope), so that its plans are stale from now on. Answers false,
   * changing nothing, when the provider has no plan inputs or an import is running (the import's
   * end computes plans from what is stored then).
   */
  raisePlanInputsVersion(orgId: string, provider: Provider, at: string): Promise<boolean>;
  /**
   * The last hour (since the epoch) in `[notBefore, notAfter]` with any stored usage of the
   * provider, searched month by month from `notAfter` back; null when there is none.
   */
  lastHourWithUsage(
    orgId: string,
    provider: Provider,
    notBefore: number,
    notAfter: number,
  ): Promise<number | null>;
  /** Every resource with stored usage in the window, its hourly usage over the window (zeros where none is stored), ordered by resource id. */
  loadUsage(orgId: string, provider: Provider, window: UsageWindow): Promise<UsageStream[]>;
  usageState(orgId: string, provider: Provider): Promise<UsageState | null>;
  /** The providers the org has imported usage of, in the order aws, azure, gcp. */
  listProvidersWithUsage(orgId: string): Promise<Provider[]>;
}

/** The commitments an org owns (imported), per provider. */
export interface CommitmentRepository {
  /** Makes `commitments` the org's commitments of `provider`: writes them, then deletes the others. */
  replaceCommitments(
    orgId: string,
    provider: Provider,
    commitments: readonly ExistingCommitment[],
  ): Promise<void>;
  /** Writes one commitment (a purchase's): rewriting the same id changes nothing. */
  putCommitment(orgId: string, commitment: ExistingCommitment): Promise<void>;
  /** Deletes the provider's commitments with these ids (absent ones are no error). */
  deleteCommitments(orgId: string, provider: Provider, ids: readonly string[]): Promise<void>;
  /** The org's commitments, or one provider's, ordered by provider, then end, then id. */
  listCommitments(orgId: string, provider?: Provider): Promise<ExistingCommitment[]>;
}
