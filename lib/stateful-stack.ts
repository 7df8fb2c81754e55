import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { tableDefinition } from '../shared/store/table';
import { deadLetterQueue } from './constructs/dead-letters';
import { SigningKeys } from './constructs/signing-keys';
import { purchaseMaxReceiveCount, purchaseQueueVisibilityTimeout } from './purchase-pipeline-settings';

export interface StatefulStackProps extends StackProps {
  /** The OAuth signing key generations, oldest first (SigningKeys). @default ['1'] */
  readonly signingKeyGenerations?: readonly string[];
}

/**
 * What outlives deployments: the single DynamoDB table (docs/data-model.md), the purchase queue with its
 * dead-letter queue (docs/purchases.md) and the OAuth signing keys (tokens signed before an API redeploy
 * must still verify after it). Kept apart from the API stack so that replacing or deleting the
 * API never touches data nor drops a queued purchase.
 */
export class StatefulStack extends Stack {
  readonly table: ITable;
  /** The FIFO queue that wakes the purchase processor: one message per line item to buy. */
  readonly purchaseQueue: IQueue;
  /** Where a purchase message goes after `purchaseMaxReceiveCount` receives. */
  readonly purchaseDeadLetterQueue: IQueue;
  readonly signingKeys: SigningKeys;

  constructor(scope: Construct, id: string, props?: StatefulStackProps) {
    super(scope, id, props);
    this.signingKeys = new SigningKeys(this, 'SigningKeys', {
      aliasPrefix: 'commitment-planning',
      ...(props?.signingKeyGenerations ? { generations: props.signingKeyGenerations } : {}),
    });

    const table = new Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      // The AWS managed key (aws/dynamodb) rather than the default AWS owned one: key use shows
      // in the account's CloudTrail. A customer managed key would add a key policy to keep and a
      // monthly key cost without a caller that needs it (no cross-account access, no crypto-shredding).
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableDefinition.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    this.table = table;

    // SQS-managed encryption rather than a KMS key: nothing outside this account reads the queues,
    // and a KMS key would add kms:GenerateDataKey/Decrypt to every sender and the consumer, a key
    // policy to keep and a cost per request, for no caller that needs it.
    this.purchaseDeadLetterQueue = deadLetterQueue(this, 'PurchaseDeadLetterQueue', { fifo: true });
    this.purchaseQueue = new Queue(this, 'PurchaseQueue', {
      fifo: true,
      // The sender sets MessageDeduplicationId (`planId:lineItemId`): a line item sent again within
      // five minutes is one message, whatever the body; a hash of the body would be a weaker key.
      contentBasedDeduplication: false,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: purchaseQueueVisibilityTimeout,
      deadLetterQueue: { queue: this.purchaseDeadLetterQueue, maxReceiveCount: purchaseMaxReceiveCount },
    });

    new CfnOutput(this, 'TableName', {
      value: table.tableName,
      description: 'The service table, for bin/admin.ts and operators',
    });
    new CfnOutput(this, 'PurchaseQueueUrl', {
      value: this.purchaseQueue.queueUrl,
      description: 'The FIFO queue that wakes the purchase processor (PURCHASE_QUEUE_URL)',
    });
    new CfnOutput(this, 'PurchaseDeadLetterQueueUrl', {
      value: this.purchaseDeadLetterQueue.queueUrl,
      description:
        'Purchase messages received 5 times without success, for bin/admin.ts dead-letters (PURCHASE_DLQ_URL)',
    });
  }
}
