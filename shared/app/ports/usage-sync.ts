import type { AsyncBuffer } from 'hyparquet';
import type { ExistingCommitment, Provider } from '../../domain/engine/shapes/model';
import type { StagedPart } from '../../domain/usage/exports/staged-usage';
import type { ExportFile } from '../../domain/usage-sources/export-files';
import type { SyncPart } from '../../domain/usage-sources/sync-parts';
import type { UsageSyncState } from '../../domain/usage-sources/sync-state';

/**
 * What a usage sync reads from a connected cloud (docs/onboarding.md, What the sync reads): the
 * export's current files, one file's bytes, and the commitments the account or subscription owns.
 * The AWS and Azure adapters (shared/cloud/usage-sources/) and the simulated cloud (local/)
 * implement them; provider errors are thrown with the provider's code as `name`.
 */

export type { ExportFile } from '../../domain/usage-sources/export-files';

/**
 * Where an export's bytes come from (the shape the export readers take, shared/exports): Parquet
 * reads ranges of the file (`random`, ranged GETs), CSV and gzip CSV read it as one stream (`stream`,
 * the object's body).
 */
export interface ExportSource {
  readonly random: AsyncBuffer;
  stream(): AsyncIterable<Uint8Array>;
}

/** The verified AWS export, as onboarding found it (Data Exports or a legacy CUR report). */
export interface AwsExportLocation {
  readonly source: 'data-exports' | 'legacy-cur';
  /** The export's name (Data Exports) or the report's name (legacy CUR). */
  readonly name: string;
  readonly bucket: string;
  /** The S3 key prefix the export delivers under; may be empty. */
  readonly prefix: string;
  /** The bucket's region. */
  readonly region: string;
}

/** One connected AWS account: reached through its onboarding role with the org's external id. */
export interface AwsUsageAccount {
  readonly accountId: string;
  readonly roleArn: string;
  readonly externalId: string;
  readonly export: AwsExportLocation;
}

/** One connected Azure subscription: reached with the service app's token in the customer's tenant. */
export interface AzureUsageSubscription {
  readonly tenantId: string;
  readonly subscriptionId: string;
  /** The Cost Management export to read; null: the subscription's only FOCUS or actual-cost export. */
  readonly exportName: string | null;
}

/** A sync's reads of one account or subscription, made with one sign-in (role session or token). */
export interface UsageSourceSession {
  /**
   * The export's current files: those the newest manifest of each billing period names, with
   * their key, ETag, size and billing period, in key order. A manifest naming a file that is not
   * in the bucket throws (the delivery is incomplete), naming the file.
   */
  listExportFiles(): Promise<ExportFile[]>;
  /** One listed file's bytes; the reads throw the provider's error (`NoSuchKey`, a changed ETag...). */
  openExportFile(file: ExportFile): ExportSource;
  /** The commitments owned now (active), every attribute mapped to the model. */
  ownedCommitments(): Promise<ExistingCommitment[]>;
}

export interface AwsUsageSources {
  /** Assumes the onboarding role (AccessDenied when it cannot); the session reads with it. */
  connect(account: AwsUsageAccount): Promise<UsageSourceSession>;
}

export interface AzureUsageSources {
  /** Signs in to the tenant (the identity platform's error before admin consent). */
  connect(subscription: AzureUsageSubscription): Promise<UsageSourceSession>;
}

/** What the usage sync remembers per org and provider (docs/usage-sync.md). */
export interface UsageSyncStateRepository {
  get(orgId: string, provider: Provider): Promise<UsageSyncState | null>;
  /** Writes the whole state. */
  put(orgId: string, provider: Provider, state: UsageSyncState): Promise<void>;
}

/**
 * The deployed sync's messages on the `sync` queue (docs/usage-sync.md, Deployed): `sync` starts a
 * run of one org and provider (the fan-out sends one per connected org and provider), `part` reads
 * one part of the run's files, `finish` stores the run once every part is staged. Duplicates and
 * any order are expected: each step is idempotent.
 */
export type UsageSyncMessage =
  | { readonly kind: 'sync'; readonly orgId: string; readonly provider: Provider; readonly runId: string }
  | {
      readonly kind: 'part';
      readonly orgId: string;
      readonly provider: Provider;
      readonly runId: string;
      readonly part: SyncPart;
    }
  | { readonly kind: 'finish'; readonly orgId: string; readonly provider: Provider; readonly runId: string };

export interface UsageSyncQueue {
  /** Sends the messages (any number; adapters batch them); rejects when any was not accepted. */
  send(messages: readonly UsageSyncMessage[]): Promise<void>;
}

/** One run of the deployed sync, as its `sync` message planned it. */
export interface SyncRun {
  readonly orgId: string;
  readonly provider: Provider;
  readonly runId: string;
  /** ISO 8601: when it was planned; the parts read rows as of then (later hours are future). */
  readonly startedAt: string;
  /** The export's current files when it was planned (the sync state's files once it succeeds). */
  readonly files: readonly ExportFile[];
  /** Files of periods with nothing new, not read. */
  readonly skippedFiles: number;
  /** The parts to read, in the order their hours are merged. */
  readonly parts: readonly SyncPart[];
}

/** A run as stored: its plan, and how far it went. */
export interface StoredSyncRun extends SyncRun {
  /** How many distinct parts are staged. */
  readonly stagedParts: number;
  readonly failed: { readonly file: string | null; readonly reason: string } | null;
  readonly finishedAt: string | null;
}

/** The deployed sync's runs and their staged parts (items under the run, removed by TTL). */
export interface SyncRunRepository {
  /** Stores the run unless one of that id exists; answers the stored run either way. */
  create(run: SyncRun): Promise<StoredSyncRun>;
  get(orgId: string, provider: Provider, runId: string): Promise<StoredSyncRun | null>;
  /**
   * Stores the part's hours under the run, then adds its id to the run's staged set (a set: the
   * same part staged again counts once). Answers how many distinct parts are staged after it, or
   * null when the run has failed (nothing is counted).
   */
  stage(run: SyncRun, part: StagedPart): Promise<number | null>;
  /** Marks the run failed (the first failure is kept); its other parts and its finish stop. */
  fail(run: SyncRun, failure: { readonly file: string | null; readonly reason: string }): Promise<void>;
  /**
   * Claims the run's finish until `until` (ISO 8601): false when it is finished, failed, or held
   * by an unexpired claim (a finish that crashed is claimed again once its claim expires).
   */
  claimFinish(run: SyncRun, now: string, until: string): Promise<boolean>;
  /** The staged parts of the run's parts, one at a time, in the run's part order. */
  stagedParts(run: SyncRun): AsyncIterable<StagedPart>;
  finished(run: SyncRun, at: string): Promise<void>;
}
