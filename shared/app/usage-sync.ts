import type { Provider } from '../domain/engine/shapes/model';
import { ValidationError } from '../domain/errors';
import { onboardingRoleArn, verifiedExportSource } from '../domain/onboarding/aws-checks';
import { hasProvenConsent, type OnboardingRecord } from '../domain/onboarding/onboarding-record';
import type { UsageSyncState } from '../domain/usage-sources/sync-state';
import { syncWork } from '../domain/usage-sources/sync-state';
import { requireOrg } from './import-files';
import type { AwsUsageAccount, AzureUsageSubscription, UsageSourceSession } from './ports/usage-sync';
import {
  createPeriodMerger,
  type ProviderSyncSummary,
  planSyncParts,
  readSyncPart,
  recordSyncOutcome,
  type SyncProgress,
  storeSyncRead,
  syncFailureOf,
  type UsageSyncContext,
} from './usage-sync-steps';

export {
  type ExportOpener,
  type ProviderSyncSummary,
  type SyncProgress,
  type UsageSyncContext,
  UsageSyncFailure,
} from './usage-sync-steps';

/**
 * The usage sync run now, in one process (`admin sync`, docs/usage-sync.md): reads a connected
 * account's export and owned commitments into the org's plan inputs. Only billing periods with a
 * new or changed file are read, each whole; everything is read before anything is stored, so a
 * file that cannot be read fails the sync with nothing of it stored, and the next sync reads it
 * again. The deployed sync runs the same steps spread over invocations (usage-sync-run.ts).
 */

export interface UsageSyncRequest {
  readonly orgId: string;
  readonly provider: Provider;
  readonly onProgress?: (progress: SyncProgress) => void;
}

/** The AWS account the org's onboarding verified, as the sync reaches it. */
export function awsUsageAccountOf(record: OnboardingRecord | null): AwsUsageAccount {
  const aws = record?.aws;
  if (!record || !aws) throw new ValidationError('the organization has no AWS account connected');
  const source = verifiedExportSource(aws.verification?.items ?? []);
  if (!source) {
    throw new ValidationError(
      `AWS account ${aws.accountId}: its last verification found no Cost and Usage export; verify it again`,
    );
  }
  if (!aws.existingCur) {
    throw new ValidationError(
      `AWS account ${aws.accountId}: name the existing export (existing_cur) and verify it again`,
    );
  }
  const { bucket, prefix, region, reportName } = aws.existingCur;
  return {
    accountId: aws.accountId,
    roleArn: onboardingRoleArn(aws.accountId),
    externalId: record.externalId,
    export: { source, name: reportName, bucket, prefix, region },
  };
}

/** Whether the org's AWS account is connected for a sync (a verified export named). */
export function hasAwsUsageAccount(record: OnboardingRecord | null): boolean {
  const aws = record?.aws;
  return Boolean(aws?.existingCur && verifiedExportSource(aws.verification?.items ?? []));
}

/** Whether the org's Azure subscription is connected for a sync (its tenant's admin consented). */
export function hasAzureUsageSubscription(record: OnboardingRecord | null): boolean {
  return hasProvenConsent(record?.azure);
}

/** The Azure subscription the org's onboarding connected (its admin consented), as the sync reaches it. */
export function azureUsageSubscriptionOf(record: OnboardingRecord | null): AzureUsageSubscription {
  const azure = record?.azure;
  if (!azure) throw new ValidationError('the organization has no Azure subscription connected');
  if (!hasProvenConsent(azure)) {
    throw new ValidationError(
      `Azure tenant ${azure.tenantId}: no administrator has consented to the service's application`,
    );
  }
  return { tenantId: azure.tenantId, subscriptionId: azure.subscriptionId, exportName: null };
}

/** Where one sync reads: a session on the account or subscription, which owns the commitments read. */
export interface SyncSource {
  readonly ownerId: string;
  connect(): Promise<UsageSourceSession>;
}

/** The org's connected account (AWS) or subscription (Azure), as a sync of `provider` reads it. */
export function syncSourceOf(
  ctx: UsageSyncContext,
  provider: Provider,
  record: OnboardingRecord | null,
): SyncSource {
  if (provider === 'aws') {
    const account = awsUsageAccountOf(record);
    return { ownerId: account.accountId, connect: () => ctx.awsSources.connect(account) };
  }
  if (provider === 'azure') {
    const subscription = azureUsageSubscriptionOf(record);
    return { ownerId: subscription.subscriptionId, connect: () => ctx.azureSources.connect(subscription) };
  }
  throw new ValidationError(`usage sync reads aws and azure; ${provider} has no sync`);
}

/** Runs one sync of the org's provider now (docs/usage-sync.md): AWS or Azure. */
export async function syncUsage(
  ctx: UsageSyncContext,
  request: UsageSyncRequest,
): Promise<ProviderSyncSummary> {
  const { orgId, provider } = request;
  if (provider !== 'aws' && provider !== 'azure') {
    throw new ValidationError(`usage sync reads aws and azure; ${provider} has no sync`);
  }
  await requireOrg(ctx, orgId);
  const source = syncSourceOf(ctx, provider, await ctx.repos.onboarding.get(orgId));
  const before = await ctx.repos.usageSyncStates.get(orgId, provider);
  try {
    return await syncAccount(ctx, request, source, before);
  } catch (error) {
    const failure = syncFailureOf(error);
    await recordSyncOutcome(ctx, orgId, provider, before, {
      status: 'failed',
      file: failure.file,
      reason: failure.reason,
    });
    throw failure;
  }
}

async function syncAccount(
  ctx: UsageSyncContext,
  request: UsageSyncRequest,
  source: SyncSource,
  before: UsageSyncState | null,
): Promise<ProviderSyncSummary> {
  const { orgId, provider, onProgress } = request;
  const session = await source.connect();
  const current = await session.listExportFiles();
  const work = syncWork(current, before);
  onProgress?.({ stage: 'listed', provider, read: work.read.length, skipped: work.skipped.length });
  const importedAt = ctx.clock.now();
  const merger = createPeriodMerger(provider);
  let lastKey: string | undefined;
  for (const part of await planSyncParts(ctx, session, work.read)) {
    if (part.key !== lastKey) onProgress?.({ stage: 'file', provider, key: part.key });
    lastKey = part.key;
    merger.add(await readSyncPart(ctx, session, part, importedAt));
  }
  const periods = merger.periods();
  const owned = await session.ownedCommitments();
  // Everything is read: from here on the sync stores.
  return storeSyncRead(
    ctx,
    {
      orgId,
      provider,
      ownerId: source.ownerId,
      current,
      filesRead: work.read.length,
      filesSkipped: work.skipped.length,
      periods,
      refused: merger.refused(),
      owned,
      onProgress,
    },
    before,
  );
}
