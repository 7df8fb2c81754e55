import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { handleUsageSyncMessage, type UsageSyncRunContext } from '../../shared/app/usage-sync-run';
import { parseUsageSyncMessage, UsageSyncMessageFormatError } from '../../shared/queue/usage-sync-queue';

/**
 * The usage-sync function (docs/usage-sync.md, Deployed): consumes the standard `sync` queue with
 * partial batch responses. Each record is one step of a run (plan it, read one part, store it);
 * a record whose step throws (storage throttled, a finish whose claim is held) is reported failed
 * and comes back after the visibility timeout, up to the dead-letter queue; the others go on.
 */
export function createUsageSyncHandler(syncContext: () => UsageSyncRunContext) {
  const logger = new Logger();

  async function processRecord(record: SQSRecord): Promise<void> {
    let message: ReturnType<typeof parseUsageSyncMessage>;
    try {
      message = parseUsageSyncMessage(record.body);
    } catch (error) {
      // A malformed message fails the same way every time: dropped with an error, not retried.
      if (error instanceof UsageSyncMessageFormatError) {
        logger.error('dropping a malformed sync message', { message_id: record.messageId, error });
        return;
      }
      throw error;
    }
    const logKeys = {
      message_id: record.messageId,
      kind: message.kind,
      org_id: message.orgId,
      run_id: message.runId,
    };
    try {
      const outcome = await handleUsageSyncMessage(syncContext(), message);
      logger.info('sync message handled', { ...logKeys, outcome });
    } catch (error) {
      logger.warn('sync step not finished: the message comes again', { ...logKeys, error });
      throw error;
    }
  }

  return middy(
    (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
      processPartialResponse(event, processRecord, new BatchProcessor(EventType.SQS), { context }),
  ).use(injectLambdaContext(logger, { resetKeys: true }));
}
