import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * Where the service's messages and invocations go when they cannot be handled, and the alarm
 * that watches them: the purchase queue's (stateful stack), the usage sync's and the catalog
 * refresh's (docs/deploy.md). One shape for all: an operator reads every dead-letter queue the
 * same way.
 */

/**
 * A dead-letter queue: SQS-managed encryption (nothing outside the account reads it, and a KMS key
 * would add key permissions to every sender), TLS only, and the longest SQS keeps a message, so
 * an operator has two weeks to look before it is gone.
 */
export function deadLetterQueue(
  scope: Construct,
  id: string,
  options: { readonly fifo?: boolean } = {},
): Queue {
  return new Queue(scope, id, {
    ...(options.fifo ? { fifo: true } : {}),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
}

/**
 * In alarm while any message waits in `queue` (checked every five minutes); it has no action: an
 * operator subscribes one (docs/deploy.md). `description` says what the message is and where to look.
 */
export function deadLetterAlarm(scope: Construct, id: string, queue: IQueue, description: string): Alarm {
  return new Alarm(scope, id, {
    alarmDescription: description,
    metric: queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    }),
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    threshold: 0,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
