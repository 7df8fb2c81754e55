import type { AsyncBuffer } from 'hyparquet';
import type { ExistingCommitment, Provider } from '../../domain/engine/model';
import type { ExportFile } from '../../domain/usage-sources/export-files';
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
