import { SQSClient } from '@aws-sdk/client-sqs';
import type { AppContext } from '../app/ports';
import type { UsageSyncRunContext } from '../app/usage-sync-run';
import { syncExportReaders } from '../exports/read-export';
import { sqsUsageSyncQueue } from '../queue/usage-sync-queue';
import { everyRepository } from '../store/store';
import { createSyncRunRepository } from '../store/usage-sync-runs';
import { createFunctionContext } from './app-context';
import { configuredRegion, createAwsTable, readAwsConfig } from './aws';
import { awsUsageSourcesIn } from './aws-usage-sources';
import { azureUsageSourcesFromEnvironment } from './azure-usage-sources';
import { onFirstUse } from './function-context';
import { lambdaPlanComputation } from './lambda-plan-computation';

/**
 * The usage-sync family on AWS (docs/usage-sync.md, Deployed): the fan-out and the sync function
 * share this composition, built on the first invocation.
 *
 * - `TABLE_NAME`, `AWS_REGION`: the service's table.
 * - `USAGE_SYNC_QUEUE_URL`: the standard `sync` queue the fan-out and the parts send to.
 * - `PLAN_COMPUTATION_FUNCTION`: the plans are computed there after a sync stores (no engine here).
 *
 * - `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET_ARN` (optional): the service's Entra application, which
 *   reads the customers' Azure subscriptions (shared/runtime/azure-usage-sources.ts).
 *
 * The customers' accounts are read through their onboarding roles; the owned reservations are
 * described in every region of the bundled catalog.
 */
export const awsUsageSyncContext = onFirstUse((): UsageSyncRunContext => {
  const env = process.env;
  const table = createAwsTable(readAwsConfig(env));
  const region = configuredRegion(env);
  if (!region) throw new Error('AWS_REGION is not set');
  const queueUrl = env.USAGE_SYNC_QUEUE_URL;
  if (!queueUrl) throw new Error('USAGE_SYNC_QUEUE_URL is not set: the sync queue');
  const base: AppContext = createFunctionContext(table, everyRepository);
  return {
    ...base,
    planComputation: lambdaPlanComputation(env),
    awsSources: awsUsageSourcesIn(region),
    azureSources: azureUsageSourcesFromEnvironment(env),
    ...syncExportReaders,
    syncRuns: createSyncRunRepository(table),
    syncQueue: sqsUsageSyncQueue(new SQSClient({ region }), queueUrl),
  };
});
