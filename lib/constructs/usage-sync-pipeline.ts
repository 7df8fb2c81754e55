import { Duration, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { onboardingRoleName } from '../../shared/domain/onboarding/aws-checks';
import { functionEntry } from '../project-paths';
import {
  defaultUsageSyncConcurrency,
  defaultUsageSyncSchedule,
  usageSyncMaxReceiveCount,
  usageSyncMemorySize,
  usageSyncTimeout,
  usageSyncVisibilityTimeout,
} from '../usage-sync-settings';
import { deadLetterAlarm, deadLetterQueue } from './dead-letters';
import { scheduledInvocation } from './scheduled-invocation';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

export interface UsageSyncPipelineProps {
  /** When the fan-out runs: an EventBridge Scheduler expression (lib/schedule-expression.ts). @default defaultUsageSyncSchedule */
  readonly schedule?: string;
  /** Sync invocations at once (the event source's maxConcurrency, 2 to 1000). @default defaultUsageSyncConcurrency */
  readonly maxConcurrency?: number;
  /** Settings the functions share with the API's (environment holds `TABLE_NAME`). */
  readonly functionSettings: Omit<ServiceFunctionProps, 'entry' | 'description' | 'timeout'>;
}

/**
 * The deployed usage sync (docs/usage-sync.md, Deployed): a schedule starts the fan-out, which
 * puts one message per connected org and provider on the `sync` queue; the sync function consumes
 * it, one message per invocation, at most `maxConcurrency` at once, and sends the parts and the
 * finish of each run to the same queue. Table access and the plan computation are the caller's to
 * grant, as for every function. The queues live here, not in the stateful stack: a message lost
 * with a redeploy is sent again by the next scheduled run.
 */
export class UsageSyncPipeline extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly fanout: ServiceFunction;
  readonly sync: ServiceFunction;
  readonly schedule: CfnSchedule;
  /** The role the scheduler invokes the fan-out as. */
  readonly scheduleRole: Role;
  /** In alarm while any sync message waits in the dead-letter queue; it has no action. */
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: UsageSyncPipelineProps) {
    super(scope, id);
    const { functionSettings } = props;
    const maxConcurrency = props.maxConcurrency ?? defaultUsageSyncConcurrency;
    if (!Number.isInteger(maxConcurrency) || maxConcurrency < 2 || maxConcurrency > 1000) {
      throw new Error(`usageSyncConcurrency must be an integer from 2 to 1000; got ${maxConcurrency}`);
    }
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue');
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: usageSyncVisibilityTimeout,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: usageSyncMaxReceiveCount },
    });

    this.fanout = new ServiceFunction(this, 'Fanout', {
      ...functionSettings,
      entry: functionEntry('usage-sync-fanout'),
      description: 'Starts the usage sync of every connected org and provider',
      timeout: Duration.minutes(5),
    });
    this.sync = new ServiceFunction(this, 'Sync', {
      ...functionSettings,
      memorySize: usageSyncMemorySize,
      entry: functionEntry('usage-sync'),
      description: "Reads connected accounts' billing exports and owned commitments, one step per message",
      timeout: usageSyncTimeout,
    });
    for (const sender of [this.fanout, this.sync]) sender.allowSendingTo(this.queue, 'USAGE_SYNC_QUEUE_URL');
    // The event source grants what consuming takes (receive, delete, change visibility).
    this.sync.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency,
      }),
    );
    // The customers' accounts are read through their onboarding roles, each admitting this
    // service only with the org's ExternalId.
    const roleArns = `arn:aws:iam::*:role/${onboardingRoleName}`;
    this.sync.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sts:AssumeRole'], resources: [roleArns] }),
    );
    Validations.of(this.sync.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${roleArns}]`,
      reason:
        'The synced accounts are the customers onboarded after deployment, so the account of the onboarding role is a wildcard; the role name is fixed, and each role admits this service only with its ExternalId.',
    });

    const scheduled = scheduledInvocation(this, {
      target: this.fanout,
      expression: props.schedule ?? defaultUsageSyncSchedule,
      setting: 'usageSyncSchedule',
      description: 'Starts the usage sync of every connected org and provider',
      roleDescription: 'Invokes the usage sync fan-out on its schedule',
      retryAttempts: 2,
    });
    this.schedule = scheduled.schedule;
    this.scheduleRole = scheduled.role;

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      'DeadLetterAlarm',
      this.deadLetterQueue,
      'A usage sync message was received 3 times without success: see the dead-letter queue and the sync states',
    );
  }
}
