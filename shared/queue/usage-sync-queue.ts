import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { UsageSyncMessage, UsageSyncQueue } from '../app/ports/usage-sync';
import { cloudProviders } from '../domain/cloud-providers';

/**
 * The `sync` queue's messages as JSON bodies (docs/usage-sync.md, Deployed), and the queue on a
 * standard SQS queue: the sync's steps are idempotent, so a duplicate delivery costs work, never a
 * count, and no FIFO ordering is needed.
 */

/** SendMessageBatch takes at most ten entries. */
const SQS_BATCH_LIMIT = 10;

export class UsageSyncMessageFormatError extends Error {
  override readonly name = 'UsageSyncMessageFormatError';
}

export function usageSyncMessageBody(message: UsageSyncMessage): string {
  return JSON.stringify(message);
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** A message body as sent by usageSyncMessageBody; anything else throws UsageSyncMessageFormatError. */
export function parseUsageSyncMessage(body: string): UsageSyncMessage {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    throw new UsageSyncMessageFormatError('the message is not JSON');
  }
  const { kind, orgId, provider, runId } = parsed ?? {};
  if (!isText(orgId) || !isText(runId) || !cloudProviders.includes(provider as never)) {
    throw new UsageSyncMessageFormatError('the message needs orgId, runId and a provider');
  }
  const base = { orgId, provider: provider as UsageSyncMessage['provider'], runId };
  if (kind === 'sync' || kind === 'finish') return { kind, ...base };
  if (kind !== 'part') throw new UsageSyncMessageFormatError(`unknown message kind ${String(kind)}`);
  const part = parsed.part as Record<string, unknown> | null | undefined;
  const rowGroups = part?.rowGroups as Record<string, unknown> | null | undefined;
  const validRange = rowGroups === null || (isCount(rowGroups?.first) && isCount(rowGroups?.end));
  if (
    !part ||
    !isText(part.key) ||
    !isText(part.etag) ||
    !isCount(part.size) ||
    !isText(part.billingPeriod) ||
    !validRange
  ) {
    throw new UsageSyncMessageFormatError(
      'a part message needs part {key, etag, size, billingPeriod, rowGroups}',
    );
  }
  return {
    kind,
    ...base,
    part: {
      key: part.key,
      etag: part.etag,
      size: part.size,
      billingPeriod: part.billingPeriod,
      rowGroups: rowGroups ? { first: rowGroups.first as number, end: rowGroups.end as number } : null,
    },
  };
}

/** The queue at `queueUrl`: batches of ten; rejects naming how many were not accepted. */
export function sqsUsageSyncQueue(client: SQSClient, queueUrl: string): UsageSyncQueue {
  return {
    async send(messages) {
      const failed: string[] = [];
      for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
        const batch = messages.slice(start, start + SQS_BATCH_LIMIT);
        const result = await client.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map((message, index) => ({
              Id: String(index),
              MessageBody: usageSyncMessageBody(message),
            })),
          }),
        );
        failed.push(...(result.Failed ?? []).map((entry) => `${entry.Id}: ${entry.Code ?? 'Unknown'}`));
      }
      if (failed.length > 0)
        throw new Error(`${failed.length} sync message(s) not sent: ${failed.join(', ')}`);
    },
  };
}
