import { Duration } from 'aws-cdk-lib';
import { FINISH_CLAIM_SECONDS } from '../shared/app/usage-sync-run';

/**
 * Settings of the deployed usage sync (docs/usage-sync.md, Deployed; docs/deploy.md). The finish
 * claim is imported from the use case (a module that loads no SDK and reads no environment), so
 * that the function's timeout cannot outgrow it.
 */

/** One message per invocation gets the whole of it: Lambda's most, 15 minutes. */
export const usageSyncTimeout = Duration.minutes(15);

/** A part's hours and a Parquet row group's columns are held at once (docs/deploy.md). */
export const usageSyncMemorySize = 3008;

/** Lambda's guidance for an SQS source: at least 6x the function's timeout. */
export const usageSyncVisibilityTimeout = Duration.seconds(6 * usageSyncTimeout.toSeconds());

/** Receives of one message before it moves to the dead-letter queue. */
export const usageSyncMaxReceiveCount = 3;

/** Sync invocations at once, across every org (the event source's maxConcurrency). */
export const defaultUsageSyncConcurrency = 5;

/** When the fan-out runs: every day at 03:00 UTC, after AWS's overnight export deliveries. */
export const defaultUsageSyncSchedule = 'cron(0 3 * * ? *)';

if (FINISH_CLAIM_SECONDS <= usageSyncTimeout.toSeconds()) {
  throw new Error('the finish claim must outlast the usage-sync function timeout');
}
