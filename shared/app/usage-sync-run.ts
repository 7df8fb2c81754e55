import type { Provider } from '../domain/engine/shapes/model';
import { syncWork } from '../domain/usage-sources/sync-state';
import { requireOrg } from './import-files';
import type { StoredSyncRun, SyncRunRepository, UsageSyncMessage, UsageSyncQueue } from './ports/usage-sync';
import { hasAwsUsageAccount, hasAzureUsageSubscription, type SyncSource, syncSourceOf } from './usage-sync';
import {
  createPeriodMerger,
  planSyncParts,
  readSyncPart,
  recordSyncOutcome,
  storeSyncRead,
  syncFailureOf,
  type UsageSyncContext,
  UsageSyncFailure,
} from './usage-sync-steps';

/**
 * The deployed usage sync (docs/usage-sync.md, Deployed): the steps of usage-sync-steps.ts, each in
 * an invocation of its own, carried by messages on the `sync` queue. A `sync` message plans a run
 * (lists the export, decides the parts), each `part` message reads one part and stages its hours
 * under the run, and the part that completes the staged set sends `finish`, which stores
 * everything as `admin sync` does. Messages may come twice and in any order: a part is staged
 * under its file key, ETag and range and counted in a set, and the finish is claimed once.
 */

export interface UsageSyncRunContext extends UsageSyncContext {
  readonly syncRuns: SyncRunRepository;
  readonly syncQueue: UsageSyncQueue;
}

/** How long a finish holds its claim: longer than the function's timeout (lib/usage-sync-settings.ts). */
export const FINISH_CLAIM_SECONDS = 16 * 60;

/** The fan-out: one `sync` message per connected org and provider, each with a new run id. */
export async function fanOutUsageSyncs(ctx: UsageSyncRunContext): Promise<UsageSyncMessage[]> {
  const messages: UsageSyncMessage[] = [];
  for (const org of await ctx.repos.orgs.list()) {
    const record = await ctx.repos.onboarding.get(org.id);
    if (hasAwsUsageAccount(record)) {
      messages.push({ kind: 'sync', orgId: org.id, provider: 'aws', runId: ctx.ids.uuid() });
    }
    if (hasAzureUsageSubscription(record)) {
      messages.push({ kind: 'sync', orgId: org.id, provider: 'azure', runId: ctx.ids.uuid() });
    }
  }
  await ctx.syncQueue.send(messages);
  return messages;
}

/** Handles one message of the `sync` queue; answers what it did, for the log. */
export async function handleUsageSyncMessage(
  ctx: UsageSyncRunContext,
  message: UsageSyncMessage,
): Promise<string> {
  if (message.kind === 'sync') return startRun(ctx, message.orgId, message.provider, message.runId);
  const run = await ctx.syncRuns.get(message.orgId, message.provider, message.runId);
  if (!run) return 'no such run';
  if (run.failed) return 'run failed';
  if (run.finishedAt) return 'run finished';
  return message.kind === 'part' ? stagePart(ctx, run, message.part) : finishRun(ctx, run);
}

/**
 * Plans the run: lists the export, decides the parts to read, stores the run and sends one
 * message per part (all again when the message comes twice: staging is idempotent). A run with
 * nothing to read goes straight to its finish (owned commitments and plans still refresh).
 */
async function startRun(
  ctx: UsageSyncRunContext,
  orgId: string,
  provider: Provider,
  runId: string,
): Promise<string> {
  await requireOrg(ctx, orgId);
  const source = syncSourceOf(ctx, provider, await ctx.repos.onboarding.get(orgId));
  const before = await ctx.repos.usageSyncStates.get(orgId, provider);
  let run: StoredSyncRun;
  try {
    const session = await source.connect();
    const current = await session.listExportFiles();
    const work = syncWork(current, before);
    run = await ctx.syncRuns.create({
      orgId,
      provider,
      runId,
      startedAt: ctx.clock.now().toISOString(),
      files: current,
      skippedFiles: work.skipped.length,
      parts: await planSyncParts(ctx, session, work.read),
    });
  } catch (error) {
    const failure = syncFailureOf(error);
    await recordSyncOutcome(ctx, orgId, provider, before, {
      status: 'failed',
      file: failure.file,
      reason: failure.reason,
    });
    return `failed: ${failure.message}`;
  }
  if (run.parts.length === 0) {
    await ctx.syncQueue.send([{ kind: 'finish', orgId, provider, runId }]);
    return 'nothing to read';
  }
  await ctx.syncQueue.send(run.parts.map((part) => ({ kind: 'part', orgId, provider, runId, part })));
  return `${run.parts.length} parts`;
}

async function stagePart(
  ctx: UsageSyncRunContext,
  run: StoredSyncRun,
  part: StoredSyncRun['parts'][number],
): Promise<string> {
  const source = syncSourceOf(ctx, run.provider, await ctx.repos.onboarding.get(run.orgId));
  let staged: Awaited<ReturnType<typeof readSyncPart>>;
  try {
    const session = await source.connect();
    staged = await readSyncPart(ctx, session, part, new Date(run.startedAt));
  } catch (error) {
    await failRun(ctx, run, error);
    return `failed: ${syncFailureOf(error).message}`;
  }
  const count = await ctx.syncRuns.stage(run, staged);
  if (count === null) return 'run failed';
  if (count < run.parts.length) return `staged ${count} of ${run.parts.length}`;
  await ctx.syncQueue.send([{ kind: 'finish', orgId: run.orgId, provider: run.provider, runId: run.runId }]);
  return 'staged the last part';
}

/** Stores the run once every part is staged: the same store as `admin sync`. */
async function finishRun(ctx: UsageSyncRunContext, run: StoredSyncRun): Promise<string> {
  if (run.stagedParts < run.parts.length) return `waiting: ${run.stagedParts} of ${run.parts.length} staged`;
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + FINISH_CLAIM_SECONDS * 1000).toISOString();
  if (!(await ctx.syncRuns.claimFinish(run, now.toISOString(), until))) return 'finish claimed elsewhere';
  const before = await ctx.repos.usageSyncStates.get(run.orgId, run.provider);
  try {
    const source = syncSourceOf(ctx, run.provider, await ctx.repos.onboarding.get(run.orgId));
    const merger = createPeriodMerger(run.provider);
    for await (const part of ctx.syncRuns.stagedParts(run)) merger.add(part);
    const periods = merger.periods();
    const owned = await ownedCommitmentsOf(source);
    await storeSyncRead(
      ctx,
      {
        orgId: run.orgId,
        provider: run.provider,
        ownerId: source.ownerId,
        current: run.files,
        filesRead: new Set(run.parts.map((part) => part.key)).size,
        filesSkipped: run.skippedFiles,
        periods,
        refused: merger.refused(),
        owned,
      },
      before,
    );
  } catch (error) {
    // Storage errors (throttling, another import's open session) are retried: the message comes
    // back once the claim has expired. What the account or its files refused fails the run.
    if (!(error instanceof UsageSyncFailure)) throw error;
    await failRun(ctx, run, error);
    return `failed: ${error.message}`;
  }
  await ctx.syncRuns.finished(run, ctx.clock.now().toISOString());
  return 'stored';
}

async function ownedCommitmentsOf(source: SyncSource) {
  try {
    return await (await source.connect()).ownedCommitments();
  } catch (error) {
    throw syncFailureOf(error);
  }
}

/** The run stops, and the sync state says why; what earlier syncs stored is kept. */
async function failRun(ctx: UsageSyncRunContext, run: StoredSyncRun, error: unknown): Promise<void> {
  const failure = syncFailureOf(error);
  await ctx.syncRuns.fail(run, { file: failure.file, reason: failure.reason });
  const before = await ctx.repos.usageSyncStates.get(run.orgId, run.provider);
  await recordSyncOutcome(ctx, run.orgId, run.provider, before, {
    status: 'failed',
    file: failure.file,
    reason: failure.reason,
  });
}
