import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { PURCHASE_CLAIM_SECONDS } from '../../shared/app/purchase-processing';
import { type SynthesizedService, synthesizeService } from './service-app';

interface PolicyStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

const purchaserRoleTemplate = 'arn:aws:iam::{account_id}:role/commitment-planning-purchaser';
const awsMarketplaceContext = {
  marketplace: 'aws',
  marketplaceRoleArn: purchaserRoleTemplate,
};

/** Reads a synthesized service by construct rather than by logical id. */
function readService(service: SynthesizedService) {
  const { api, stateful, stacks } = service;
  const apiId = (construct: { node: { defaultChild?: unknown } }) =>
    stacks.api.getLogicalId(construct.node.defaultChild as CfnResource);
  const allFunctions = (): ServiceFunction[] => [
    stacks.api.authorizerFunction,
    ...stacks.api.groupFunctions.values(),
    stacks.api.purchases.processor,
    stacks.api.purchases.sweep,
  ];
  const statementsOf = (serviceFunction: ServiceFunction): PolicyStatement[] => {
    const policies = api.findResources('AWS::IAM::Policy', {
      Properties: { Roles: [{ Ref: apiId(serviceFunction.role) }] },
    });
    return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  };
  const allows = (serviceFunction: ServiceFunction, action: string) =>
    statementsOf(serviceFunction).filter(
      (statement) => statement.Effect === 'Allow' && [statement.Action].flat().includes(action),
    );
  const variablesOf = (serviceFunction: ServiceFunction): Record<string, unknown> =>
    api.findResources('AWS::Lambda::Function')[apiId(serviceFunction.function)]?.Properties.Environment
      .Variables;
  const queues = stateful.findResources('AWS::SQS::Queue');
  const queueId = (construct: { node: { defaultChild?: unknown } }) =>
    stacks.stateful.getLogicalId(construct.node.defaultChild as CfnResource);
  return {
    apiId,
    allFunctions,
    statementsOf,
    allows,
    variablesOf,
    queue: queues[queueId(stacks.stateful.purchaseQueue)]?.Properties,
    deadLetterQueue: queues[queueId(stacks.stateful.purchaseDeadLetterQueue)]?.Properties,
    queueId,
  };
}

/** An export of the stateful stack, as the API stack imports it. */
const imported = (pattern: RegExp) => ({
  'Fn::ImportValue': expect.stringMatching(new RegExp(`^CommitmentPlanning-Stateful:${pattern.source}`)),
});
const purchaseQueueArn = imported(/ExportsOutputFnGetAttPurchaseQueue\w+Arn/);
const purchaseQueueUrl = imported(/ExportsOutputRefPurchaseQueue\w+/);

describe('purchase pipeline', () => {
  const service = synthesizeService();
  const { api, stateful, stacks } = service;
  const { processor, sweep } = stacks.api.purchases;
  const planPurchases = stacks.api.groupFunctions.get('plan-purchases') as ServiceFunction;
  const read = readService(service);

  describe('queues (stateful stack)', () => {
    it('makes the purchase queue FIFO, deduplicated by the sender’s id, never by content', () => {
      // Assess
      stateful.resourceCountIs('AWS::SQS::Queue', 2);
      expect(read.queue).toMatchObject({ FifoQueue: true, ContentBasedDeduplication: false });
    });

    it('moves a message to a FIFO dead-letter queue after 5 receives, kept there 14 days', () => {
      expect(read.queue?.RedrivePolicy).toEqual({
        deadLetterTargetArn: {
          'Fn::GetAtt': [read.queueId(stacks.stateful.purchaseDeadLetterQueue), 'Arn'],
        },
        maxReceiveCount: 5,
      });
      expect(read.deadLetterQueue).toMatchObject({ FifoQueue: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    });

    it('encrypts both queues at rest and refuses requests without TLS', () => {
      for (const queue of [stacks.stateful.purchaseQueue, stacks.stateful.purchaseDeadLetterQueue]) {
        // Act
        const properties = stateful.findResources('AWS::SQS::Queue')[read.queueId(queue)]?.Properties;
        const [policy] = Object.values(
          stateful.findResources('AWS::SQS::QueuePolicy', {
            Properties: { Queues: [{ Ref: read.queueId(queue) }] },
          }),
        );

        // Assess
        expect(properties?.SqsManagedSseEnabled).toBe(true);
        expect(policy?.Properties.PolicyDocument.Statement).toContainEqual({
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'sqs:*',
          Resource: { 'Fn::GetAtt': [read.queueId(queue), 'Arn'] },
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        });
      }
    });

    it('outputs both queue URLs for operators', () => {
      // Act
      const outputs = stateful.findOutputs('*');

      // Assess
      expect(outputs.PurchaseQueueUrl?.Value).toEqual({ Ref: read.queueId(stacks.stateful.purchaseQueue) });
      expect(outputs.PurchaseDeadLetterQueueUrl?.Value).toEqual({
        Ref: read.queueId(stacks.stateful.purchaseDeadLetterQueue),
      });
    });
  });

  describe('processor', () => {
    const processorProperties =
      api.findResources('AWS::Lambda::Function')[read.apiId(processor.function)]?.Properties;

    it('consumes the queue 10 messages at a time, reporting the records that failed', () => {
      // Assess
      const [mapping] = Object.values(
        api.findResources('AWS::Lambda::EventSourceMapping', {
          Properties: { FunctionName: { Ref: read.apiId(processor.function) } },
        }),
      );
      expect(mapping?.Properties).toEqual({
        EventSourceArn: purchaseQueueArn,
        FunctionName: { Ref: read.apiId(processor.function) },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    it('runs on Node.js 24, arm64, for up to 60 s', () => {
      expect(processorProperties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Timeout: 60,
      });
    });

    it('hides a received message at least 6 times its timeout, and past the claim of the attempt holding it', () => {
      // Prepare
      const visibility = read.queue?.VisibilityTimeout as number;
      const timeout = processorProperties?.Timeout as number;

      // Assess: a record is claimed within one timeout of its receive, for PURCHASE_CLAIM_SECONDS.
      expect(visibility).toBeGreaterThanOrEqual(6 * timeout);
      expect(visibility).toBeGreaterThan(PURCHASE_CLAIM_SECONDS);
      expect(visibility).toBeGreaterThanOrEqual(timeout + PURCHASE_CLAIM_SECONDS);
    });

    it('is the only function that receives, deletes or hides purchase messages', () => {
      for (const serviceFunction of read.allFunctions()) {
        // Act
        const consuming = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'].flatMap(
          (action) => read.allows(serviceFunction, action),
        );

        // Assess
        if (serviceFunction === processor) {
          expect(consuming.length).toBeGreaterThan(0);
          for (const statement of consuming) expect(statement.Resource).toEqual(purchaseQueueArn);
        } else {
          expect(consuming).toEqual([]);
        }
      }
    });
  });

  describe('sweep', () => {
    it('runs every 5 minutes on a schedule whose one target is the sweep function', () => {
      // Assess
      api.resourceCountIs('AWS::Events::Rule', 1);
      const [rule] = Object.entries(api.findResources('AWS::Events::Rule'));
      expect(rule?.[1].Properties.ScheduleExpression).toBe('rate(5 minutes)');
      expect(rule?.[1].Properties.Targets).toEqual([
        { Id: expect.any(String), Arn: { 'Fn::GetAtt': [read.apiId(sweep.function), 'Arn'] } },
      ]);
      api.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [read.apiId(sweep.function), 'Arn'] },
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [rule?.[0], 'Arn'] },
      });
    });
  });

  describe('environment and grants', () => {
    it('tells the functions that send purchases, and only them, the queue’s URL', () => {
      for (const serviceFunction of read.allFunctions()) {
        // Act
        const queueUrl = read.variablesOf(serviceFunction).PURCHASE_QUEUE_URL;

        // Assess
        if (serviceFunction === planPurchases || serviceFunction === sweep) {
          expect(queueUrl).toEqual(purchaseQueueUrl);
        } else {
          expect(queueUrl).toBeUndefined();
        }
      }
    });

    it('lets plan-purchases and the sweep send to the purchase queue, and no other function', () => {
      for (const serviceFunction of read.allFunctions()) {
        // Act
        const sending = read.allows(serviceFunction, 'sqs:SendMessage');

        // Assess
        if (serviceFunction === planPurchases || serviceFunction === sweep) {
          expect(sending).toEqual([
            { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: purchaseQueueArn },
          ]);
        } else {
          expect(sending).toEqual([]);
        }
      }
    });

    it('gives the processor and the sweep the table access of the route functions', () => {
      // Prepare
      const tableStatements = (serviceFunction: ServiceFunction) =>
        read
          .statementsOf(serviceFunction)
          .filter((statement) => [statement.Action].flat()[0]?.startsWith('dynamodb:'));
      const routeAccess = tableStatements(planPurchases);

      // Assess
      expect(routeAccess).toHaveLength(1);
      expect(tableStatements(processor)).toEqual(routeAccess);
      expect(tableStatements(sweep)).toEqual(routeAccess);
    });

    it('bundles the simulated processor entry by default', () => {
      // Assess
      expect(stacks.api.purchases.processorEntry.endsWith('functions/purchase-processor/handler.ts')).toBe(
        true,
      );
    });

    it('buys from the simulated marketplace by default: MARKETPLACE on the processor only, no role to assume', () => {
      // The AWS verification assumes the onboarding role to verify accounts (onboarding.test.ts),
      // the usage sync to read their exports (usage-sync-pipeline.test.ts); allFunctions has no
      // usage sync function.
      const verifier = stacks.api.groupFunctions.get('onboarding-aws-verify');
      for (const serviceFunction of read.allFunctions().filter((candidate) => candidate !== verifier)) {
        // Act
        const variables = read.variablesOf(serviceFunction);

        // Assess
        expect(variables.MARKETPLACE).toBe(serviceFunction === processor ? 'simulated' : undefined);
        expect(variables.MARKETPLACE_ROLE_ARN).toBeUndefined();
        expect(variables.MARKETPLACE_EXTERNAL_ID).toBeUndefined();
        expect(read.allows(serviceFunction, 'sts:AssumeRole')).toEqual([]);
      }
      // No other policy of the API stack grants it either (trust policies name it, as a principal's action).
      const verifierRole = verifier
        ? stacks.api.getLogicalId(verifier.role.node.defaultChild as CfnResource)
        : '';
      const syncRole = stacks.api.getLogicalId(
        stacks.api.usageSync.sync.role.node.defaultChild as CfnResource,
      );
      const others = Object.values(api.findResources('AWS::IAM::Policy')).filter((policy) => {
        const roles = JSON.stringify(policy.Properties.Roles);
        return !roles.includes(verifierRole) && !roles.includes(syncRole);
      });
      const granting = others.flatMap((policy) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).filter((statement) =>
          [statement.Action].flat().some((action) => action.startsWith('sts:')),
        ),
      );
      expect(granting).toEqual([]);
    });
  });

  it('raises an alarm as soon as a message is in the dead-letter queue', () => {
    // Assess
    const [alarm] = Object.values(api.findResources('AWS::CloudWatch::Alarm')).filter(
      (candidate) => candidate.Properties.AlarmDescription?.startsWith('A purchase message') ?? false,
    );
    expect(alarm?.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        { Name: 'QueueName', Value: imported(/ExportsOutputFnGetAttPurchaseDeadLetterQueue\w+QueueName/) },
      ],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });
});

describe('purchase pipeline with marketplace=aws', () => {
  const service = synthesizeService(undefined, { context: awsMarketplaceContext });
  const { stacks } = service;
  const { processor } = stacks.api.purchases;
  const read = readService(service);

  it('bundles the aws processor entry, with the purchase clients (the default entry has none: bundling.test.ts)', () => {
    // Assess
    expect(stacks.api.purchases.processorEntry.endsWith('functions/purchase-processor/aws-handler.ts')).toBe(
      true,
    );
  });

  it('gives the processor the role template, and no deployment-wide external id (each org has its own)', () => {
    // Act
    const variables = read.variablesOf(processor);

    // Assess
    expect(variables).toMatchObject({ MARKETPLACE: 'aws', MARKETPLACE_ROLE_ARN: purchaserRoleTemplate });
    expect(variables.MARKETPLACE_EXTERNAL_ID).toBeUndefined();
  });

  it('lets the processor assume the purchasing role, by name, in any account, and no other function but the verifier', () => {
    const verifier = stacks.api.groupFunctions.get('onboarding-aws-verify');
    for (const serviceFunction of read.allFunctions().filter((candidate) => candidate !== verifier)) {
      // Act
      const assuming = read.allows(serviceFunction, 'sts:AssumeRole');

      // Assess
      expect(assuming).toEqual(
        serviceFunction === processor
          ? [
              {
                Effect: 'Allow',
                Action: 'sts:AssumeRole',
                Resource: 'arn:aws:iam::*:role/commitment-planning-purchaser',
              },
            ]
          : [],
      );
    }
  });

  it('keeps the marketplace settings off every other function', () => {
    for (const serviceFunction of read.allFunctions().filter((candidate) => candidate !== processor)) {
      expect(Object.keys(read.variablesOf(serviceFunction))).not.toContain('MARKETPLACE_ROLE_ARN');
      expect(Object.keys(read.variablesOf(serviceFunction))).not.toContain('MARKETPLACE_EXTERNAL_ID');
    }
  });

  it('synthesizes the same stateful stack as a simulated deployment', () => {
    // Prepare
    const simulated = synthesizeService();

    // Assess: switching the marketplace never replaces the table or the queues.
    expect(service.stateful.toJSON()).toEqual(simulated.stateful.toJSON());
  });
});

describe('marketplace context', () => {
  const synthesizeWith = (context: Record<string, string>) => () => synthesizeService(undefined, { context });

  it('refuses marketplace=aws without the role, naming its key', () => {
    expect(synthesizeWith({ marketplace: 'aws' })).toThrow(/context "marketplaceRoleArn" must be set too/);
  });

  it('refuses a role ARN without the {account_id} placeholder as its account, or with a wildcard', () => {
    for (const roleArn of [
      'arn:aws:iam::123456789012:role/commitment-planning-purchaser',
      'arn:aws:iam::{account_id}:role/*',
      'arn:aws:iam::*:role/commitment-planning-purchaser',
      'commitment-planning-purchaser',
    ]) {
      expect(synthesizeWith({ ...awsMarketplaceContext, marketplaceRoleArn: roleArn }), roleArn).toThrow(
        /"marketplaceRoleArn" must be a role ARN with \{account_id\} as its account/,
      );
    }
  });

  it('refuses a marketplace other than simulated or aws', () => {
    expect(synthesizeWith({ marketplace: 'azure' })).toThrow(
      /"marketplace" must be "simulated" \(the default\) or "aws", not "azure"/,
    );
  });
});
