import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { tableDefinition } from '../../shared/store/table';
import { synthesizeService } from './service-app';

describe('stateful stack', () => {
  const { stateful } = synthesizeService();

  it('creates the single table with the keys and index of the shared table definition', () => {
    // Prepare
    const [gsi1] = tableDefinition.globalIndexes;

    // Assess
    stateful.resourceCountIs('AWS::DynamoDB::Table', 1);
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'GSI1PK', AttributeType: 'S' },
        { AttributeName: 'GSI1SK', AttributeType: 'S' },
      ]),
      GlobalSecondaryIndexes: [
        {
          IndexName: gsi1?.indexName,
          KeySchema: [
            { AttributeName: 'GSI1PK', KeyType: 'HASH' },
            { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
  });

  it('bills on demand and expires items through the definition’s TTL attribute', () => {
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  it('keeps the data: point-in-time recovery, deletion protection, retained on stack deletion', () => {
    stateful.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
  });

  it('encrypts with the AWS managed KMS key', () => {
    // SSEEnabled without a key id selects the AWS managed key (aws/dynamodb).
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      SSESpecification: { SSEEnabled: true, KMSMasterKeyId: Match.absent() },
    });
  });

  it('outputs the table name for operators', () => {
    // Act
    const outputs = stateful.findOutputs('TableName');

    // Assess
    expect(outputs.TableName?.Value).toEqual({ Ref: expect.stringMatching(/^Table/) });
  });
});
