import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type ProcessorContext, processPurchase } from '../../shared/app/purchase-processing';
import { PurchaseMessageFormatError, parsePurchaseMessage } from '../../shared/queue/purchase-queue';

/**
 * The purchase processor (docs/purchases.md): an SQS FIFO event source with ReportBatchItemFailures.
 * Each record is one line item's purchase; a record that cannot finish now (another attempt holds
 * it, or the provider did not answer) is reported as failed and comes back after the visibility
 * timeout, and the rest of its org's group with it (FIFO order); other orgs' records go on.
 * One handler per marketplace entry (handler.ts: simulated, aws-handler.ts: aws), which differ
 * only in the marketplace they bundle.
 */
export function createPurchaseProcessorHandler(processorContext: () => ProcessorContext) {
  const logger = new Logger();

  async function processRecord(record: SQSRecord): Promise<void> {
    let message: ReturnType<typeof parsePurchaseMessage>;
    try {
      message = parsePurchaseMessage(record.body);
    } catch (error) {
      // A malformed message fails the same way every time: dropped with an error, not retried.
      if (error instanceof PurchaseMessageFormatError) {
        logger.error('dropping a malformed purchase message', { message_id: record.messageId, error });
        return;
      }
      throw error;
    }
    const logKeys = {
      message_id: record.messageId,
      plan_id: message.planId,
      line_item_id: message.lineItemId,
    };
    try {
      const result = await processPurchase(processorContext(), message);
      logger.info('purchase processed', {
        ...logKeys,
        outcome: result.outcome,
        ...(result.outcome === 'settled'
          ? { status: result.record.status, attempts: result.record.attempts }
          : {}),
        ...(result.outcome === 'waiting' ? { reason: result.reason } : {}),
      });
    } catch (error) {
      logger.warn('purchase not finished: the message comes again', { ...logKeys, error });
      throw error;
    }
  }

  return middy(
    // A processor per invocation: where invocations run concurrently (AWS_LAMBDA_MAX_CONCURRENCY),
    // Powertools keeps a processor's state in the invocation's store, which does not exist at load.
    (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
      processPartialResponse(event, processRecord, new SqsFifoPartialProcessorAsync(), {
        context,
        skipGroupOnError: true,
      }),
  ).use(injectLambdaContext(logger, { resetKeys: true }));
}
