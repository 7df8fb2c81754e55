import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredSyncRun, SyncRun, SyncRunRepository } from '../app/ports/usage-sync';
import type { StagedPart } from '../domain/usage/exports/staged-usage';
import { syncPartId } from '../domain/usage-sources/sync-parts';
import { writeInBatches } from './batch-writes';
import { compressedParts, fromCompressedParts } from './compressed-parts';
import { isConditionFailure, putIfAbsent, updateIf } from './conditional-writes';
import { stagedPartKey, syncRunKey, syncRunPartition } from './keys';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/** Runs and their staged parts are removed by TTL this long after the run started. */
const RUN_LIFETIME_SECONDS = 3 * 24 * 3600;

/**
 * The deployed sync's runs (docs/usage-sync.md, Deployed; docs/data-model.md): the run item
 * `ORG#<org>` / `SYNC_RUN#<provider>#<run>` holds its plan and the set of staged part ids; each
 * staged part is gzip-compressed JSON in chunks `SYNC_RUN#<run>` / `PART#<part>#<nnnn>`. A part
 * is counted by adding its id to the set, one single-item update: staging it again adds nothing.
 */
export function createSyncRunRepository(table: TableClient): SyncRunRepository {
  const expiresAt = (run: SyncRun) => Math.floor(Date.parse(run.startedAt) / 1000) + RUN_LIFETIME_SECONDS;
  const key = (run: Pick<SyncRun, 'orgId' | 'provider' | 'runId'>) =>
    syncRunKey(run.orgId, run.provider, run.runId);

  return {
    async create(run) {
      const item = {
        type: 'syncRun',
        orgId: run.orgId,
        provider: run.provider,
        runId: run.runId,
        startedAt: run.startedAt,
        files: run.files.map(({ key: fileKey, etag, size, billingPeriod }) => ({
          key: fileKey,
          etag,
          size,
          billingPeriod,
        })),
        skippedFiles: run.skippedFiles,
        parts: run.parts,
        version: 1,
        expiresAt: expiresAt(run),
      };
      const existing = await putIfAbsent(table, key(run), item);
      return toRun(existing ?? item);
    },

    async get(orgId, provider, runId) {
      const item = await getItem(table, syncRunKey(orgId, provider, runId));
      return item ? toRun(item) : null;
    },

    async stage(run, part) {
      const chunks = compressedParts(part);
      await writeInBatches(
        table,
        chunks.map((data, index) => ({
          put: {
            ...stagedPartKey(run.runId, part.partId, index + 1),
            chunks: chunks.length,
            data,
            expiresAt: expiresAt(run),
          },
        })),
      );
      try {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: key(run),
            UpdateExpression: 'ADD stagedParts :part, #version :one',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(failed)',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':part': new Set([part.partId]), ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return stagedIdsOf(Attributes ?? {}).size;
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    async fail(run, failure) {
      await updateIf(table, {
        key: key(run),
        expression: 'SET failed = :failed',
        condition:
          'attribute_exists(PK) AND attribute_not_exists(failed) AND attribute_not_exists(finishedAt)',
        values: { ':failed': { file: failure.file, reason: failure.reason } },
      });
    },

    async claimFinish(run, now, until) {
      return updateIf(table, {
        key: key(run),
        expression: 'SET finishClaimedUntil = :until',
        condition:
          'attribute_exists(PK) AND attribute_not_exists(failed) AND attribute_not_exists(finishedAt) AND (attribute_not_exists(finishClaimedUntil) OR finishClaimedUntil < :now)',
        values: { ':until': until, ':now': now },
      });
    },

    async *stagedParts(run) {
      for (const part of run.parts) {
        const partId = syncPartId(part);
        // One part's chunks at a time: memory holds one part, however many the run has.
        const chunks = await queryAll(table, {
          KeyConditionExpression: 'PK = :run AND begins_with(SK, :part)',
          ExpressionAttributeValues: { ':run': syncRunPartition(run.runId), ':part': `PART#${partId}#` },
          ConsistentRead: true,
        });
        if (chunks.length === 0 || chunks.length !== chunks[0]?.chunks) {
          throw new Error(`the staged hours of ${part.key} (part ${partId}) are incomplete`);
        }
        yield fromCompressedParts(chunks.map((chunk) => chunk.data as Uint8Array)) as StagedPart;
      }
    },

    async finished(run, at) {
      await updateIf(table, {
        key: key(run),
        expression: 'SET finishedAt = :at REMOVE finishClaimedUntil',
        condition: 'attribute_exists(PK)',
        values: { ':at': at },
      });
    },
  };
}

function stagedIdsOf(item: StoredItem): Set<string> {
  return (item.stagedParts as Set<string> | undefined) ?? new Set();
}

function toRun(item: StoredItem): StoredSyncRun {
  return {
    orgId: item.orgId as string,
    provider: item.provider as StoredSyncRun['provider'],
    runId: item.runId as string,
    startedAt: item.startedAt as string,
    files: item.files as StoredSyncRun['files'],
    skippedFiles: item.skippedFiles as number,
    parts: item.parts as StoredSyncRun['parts'],
    stagedParts: stagedIdsOf(item).size,
    failed: (item.failed as StoredSyncRun['failed'] | undefined) ?? null,
    finishedAt: (item.finishedAt as string | undefined) ?? null,
  };
}
