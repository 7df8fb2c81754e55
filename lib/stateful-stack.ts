import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableDefinition } from '../shared/store/table';
import { SigningKeys } from './constructs/signing-keys';

export interface StatefulStackProps extends StackProps {
  /** The OAuth signing key generations, oldest first (SigningKeys). @default ['1'] */
  readonly signingKeyGenerations?: readonly string[];
}

/**
 * What outlives deployments: the single DynamoDB table (DESIGN §6) and the OAuth signing keys
 * (tokens signed before an API redeploy must still verify after it). Kept apart from the API stack
 * so that replacing or deleting the API never touches data.
 */
export class StatefulStack extends Stack {
  readonly table: ITable;
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

    new CfnOutput(this, 'TableName', {
      value: table.tableName,
      description: 'The service table, for bin/admin.ts and operators',
    });
  }
}
