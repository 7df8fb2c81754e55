import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { fanOutUsageSyncs, type UsageSyncRunContext } from '../../shared/app/usage-sync-run';

/**
 * The usage-sync fan-out (docs/usage-sync.md, Deployed), started by the EventBridge Scheduler
 * schedule: one `sync` message per connected org and provider on the sync queue.
 */
export function createUsageSyncFanoutHandler(syncContext: () => UsageSyncRunContext) {
  const logger = new Logger();

  return middy(async (): Promise<{ readonly messages: number }> => {
    const messages = await fanOutUsageSyncs(syncContext());
    logger.info('usage syncs started', { messages: messages.length });
    return { messages: messages.length };
  }).use(injectLambdaContext(logger, { resetKeys: true }));
}
