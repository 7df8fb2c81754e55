import type { ExportFile } from './export-files';

/**
 * What a usage sync remembers of one org and provider (docs/usage-sync.md): the export's files it
 * stored (key and ETag), and how its last run ended. The next sync reads only the billing periods
 * whose files changed.
 */
export interface SyncedFile {
  readonly key: string;
  readonly etag: string;
  readonly billingPeriod: string;
}

/**
 * A file over a bound (docs/usage-sync.md, Bounds): `code` names the bound; its billing period was
 * not stored.
 */
export interface RefusedFile {
  readonly file: string;
  readonly billingPeriod: string;
  readonly code: string;
  readonly reason: string;
}

/**
 * How the last sync ended: `failed` names the file (or step) and why; nothing of it was stored.
 * `succeeded` may list `refused` files: their periods were not stored, the others were.
 */
export type SyncOutcome =
  | { readonly status: 'succeeded'; readonly refused?: readonly RefusedFile[] }
  | { readonly status: 'failed'; readonly file: string | null; readonly reason: string };

export interface UsageSyncState {
  /** The files the last successful sync stored, in key order. */
  readonly files: readonly SyncedFile[];
  /** The ids of the commitments the last successful sync wrote (replaced by the next one). */
  readonly commitmentIds: readonly string[];
  /** ISO 8601: when the last sync (of either outcome) ended. */
  readonly lastSyncAt: string;
  /** ISO 8601: when the last successful sync ended; null: none yet. */
  readonly lastSuccessAt: string | null;
  /** Usage rows the last successful sync read. */
  readonly rows: number;
  /** Of those, the rows that became usage. */
  readonly usedRows: number;
  /** The reasons the others were skipped, each with its count and first example ('' when none was). */
  readonly skipped: string;
  readonly outcome: SyncOutcome;
}

/** Which billing periods a sync reads, and the files it reads and skips. */
export interface SyncWork {
  /** Periods with a new or changed file, or a file gone: re-read whole, in order. */
  readonly periods: readonly string[];
  /** Every current file of those periods, in key order. */
  readonly read: readonly ExportFile[];
  /** Current files of the other periods: unchanged since the last successful sync. */
  readonly skipped: readonly ExportFile[];
}

/**
 * Compares the export's current files with those the last successful sync stored: a period is
 * read again, all its current files, when any of them is new or has another ETag, or when a file
 * it stored is no longer current (the provider delivered the period again with fewer files).
 */
export function syncWork(current: readonly ExportFile[], state: UsageSyncState | null): SyncWork {
  const stored = new Map((state?.files ?? []).map((file) => [file.key, file]));
  const changed = new Set<string>();
  for (const file of current) {
    const before = stored.get(file.key);
    if (!before || before.etag !== file.etag || before.billingPeriod !== file.billingPeriod) {
      changed.add(file.billingPeriod);
    }
  }
  const currentPeriodOf = new Map(current.map((file) => [file.key, file.billingPeriod]));
  const currentPeriods = new Set(currentPeriodOf.values());
  for (const file of stored.values()) {
    // A period the export no longer lists is left as stored: providers keep past periods' files.
    const gone = currentPeriodOf.get(file.key) !== file.billingPeriod;
    if (gone && currentPeriods.has(file.billingPeriod)) changed.add(file.billingPeriod);
  }
  return {
    periods: [...changed].sort(),
    read: current.filter((file) => changed.has(file.billingPeriod)),
    skipped: current.filter((file) => !changed.has(file.billingPeriod)),
  };
}

/**
 * The owned commitments a sync writes: every describe answer except those the org holds another
 * way, so that none counts twice: a commitment stored by an imported commitments file (same id),
 * or bought by the service (`purchasedIds`: the ids the describe calls give the provider ids its
 * completed purchases recorded). The previous sync's own commitments are not "another way":
 * they are replaced.
 */
export function ownedCommitmentsToWrite<T extends { readonly id: string }>(
  owned: readonly T[],
  held: {
    readonly storedIds: ReadonlySet<string>;
    readonly previousSyncIds: ReadonlySet<string>;
    readonly purchasedIds: ReadonlySet<string>;
  },
): T[] {
  return owned.filter(
    (commitment) =>
      !held.purchasedIds.has(commitment.id) &&
      (held.previousSyncIds.has(commitment.id) || !held.storedIds.has(commitment.id)),
  );
}
