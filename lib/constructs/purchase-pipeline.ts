import { Duration, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { assumableRoleArns, type MarketplaceConfig, marketplaceEnvironment } from '../marketplace-config';
import { functionEntry } from '../project-paths';
import { purchaseProcessorTimeout, purchaseSweepInterval } from '../purchase-pipeline-settings';
import { deadLetterAlarm } from './dead-letters';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

/** Messages per processor invocation: the most a FIFO event source takes. */
export const purchaseBatchSize = 10;

export interface PurchasePipelineProps {
  /** The FIFO purchase queue (from the stateful stack). */
  readonly queue: IQueue;
  /** Its dead-letter queue, watched by an alarm. */
  readonly deadLetterQueue: IQueue;
  readonly marketplace: MarketplaceConfig;
  /** Settings the pipeline's functions share with the API's (environment holds `TABLE_NAME`). */
  readonly functionSettings: Omit<ServiceFunctionProps, 'entry' | 'description' | 'timeout'>;
}

/**
 * The consumer side of the purchase pipeline (docs/purchases.md): the processor on the queue's event
 * source with partial batch responses, the sweep on a schedule, and an alarm on dead letters.
 * Table access is the caller's to grant on `processor.role` and `sweep.role`, as for every function.
 */
export class PurchasePipeline extends Construct {
  readonly processor: ServiceFunction;
  /** The processor's entry: the marketplace's own, so it bundles only the purchase clients it runs. */
  readonly processorEntry: string;
  readonly sweep: ServiceFunction;
  readonly sweepSchedule: Rule;
  /** In alarm while any purchase message waits in the dead-letter queue; it has no action. */
  readonly deadLetterAlarm: Alarm;
  readonly #queue: IQueue;

  constructor(scope: Construct, id: string, props: PurchasePipelineProps) {
    super(scope, id);
    const { queue, marketplace, functionSettings } = props;
    this.#queue = queue;

    this.processorEntry = functionEntry(
      'purchase-processor',
      marketplace.kind === 'aws' ? 'aws-handler.ts' : 'handler.ts',
    );
    // No reserved concurrency: with an SQS source, an invoke throttled by it puts the batch back
    // and counts a receive, which could push purchases to the dead-letter queue.
    this.processor = new ServiceFunction(this, 'Processor', {
      ...functionSettings,
      environment: { ...functionSettings.environment, ...marketplaceEnvironment(marketplace) },
      entry: this.processorEntry,
      description: 'Buys the line items of applied plans, one queue message per line item',
      timeout: purchaseProcessorTimeout,
    });
    // The event source grants the processor what consuming takes (receive, delete, change visibility).
    this.processor.function.addEventSource(
      new SqsEventSource(queue, { batchSize: purchaseBatchSize, reportBatchItemFailures: true }),
    );
    // Purchases are made in the buying account through its role, and only when the deployment
    // was told to buy for real: a simulated deployment cannot assume any role.
    if (marketplace.kind === 'aws') {
      const roleArns = assumableRoleArns(marketplace);
      this.processor.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['sts:AssumeRole'], resources: [roleArns] }),
      );
      Validations.of(this.processor.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${roleArns}]`,
        reason:
          'The buying accounts are the customers onboarded after deployment, so the account of the purchasing role is a wildcard; the role name is fixed, and each role admits this service only with its ExternalId.',
      });
    }

    this.sweep = new ServiceFunction(this, 'Sweep', {
      ...functionSettings,
      entry: functionEntry('purchase-sweep'),
      description: 'Sends again the messages of purchases that stopped moving',
      timeout: Duration.seconds(60),
    });
    this.allowSending(this.sweep);
    this.sweepSchedule = new Rule(this, 'SweepSchedule', {
      description: 'Runs the purchase sweep',
      schedule: Schedule.rate(purchaseSweepInterval),
      targets: [new LambdaFunction(this.sweep.function)],
    });

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      'DeadLetterAlarm',
      props.deadLetterQueue,
      'A purchase message was received 5 times without success: see the dead-letter queue and the purchase records',
    );
  }

  /**
   * Lets a function send purchase messages: the queue's URL as `PURCHASE_QUEUE_URL`, and
   * sqs:SendMessage (which SendMessageBatch needs too) on this queue, nothing else.
   */
  allowSending(serviceFunction: ServiceFunction): void {
    serviceFunction.allowSendingTo(this.#queue, 'PURCHASE_QUEUE_URL');
  }
}
