import type { CfnResource } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../lib/app';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { FINISH_CLAIM_SECONDS } from '../../shared/app/usage-sync-run';
import { appWithoutBundling, synthesizeService } from './service-app';

interface PolicyStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

/**
 * The deployed usage sync (docs/usage-sync.md, Deployed; docs/deploy.md): the schedule, the sync
 * queue with its dead-letter queue, the sync function's event source, and each function's grants.
 */
describe('the usage sync pipeline', () => {
  const service = synthesizeService();
  const { api, stacks } = service;
  const pipeline = stacks.api.usageSync;
  const apiId = (construct: { node: { defaultChild?: unknown } }) =>
    stacks.api.getLogicalId(construct.node.defaultChild as CfnResource);
  const statementsOf = (serviceFunction: ServiceFunction): PolicyStatement[] => {
    const policies = api.findResources('AWS::IAM::Policy', {
      Properties: { Roles: [{ Ref: apiId(serviceFunction.role) }] },
    });
    return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  };
  const actionsOf = (serviceFunction: ServiceFunction) =>
    statementsOf(serviceFunction).flatMap((statement) => [statement.Action].flat());

  it('starts the fan-out every day at 03:00 UTC by default, through a role that may only invoke it', () => {
    // Act
    const schedules = Object.values(
      api.findResources('AWS::Scheduler::Schedule', {
        Properties: { Target: { Arn: { 'Fn::GetAtt': [apiId(pipeline.fanout.function), 'Arn'] } } },
      }),
    );

    // Assess
    expect(schedules).toHaveLength(1);
    const schedule = schedules[0]?.Properties;
    expect(schedule.ScheduleExpression).toBe('cron(0 3 * * ? *)');
    expect(schedule.State).toBe('ENABLED');
    expect(schedule.Target.Arn).toEqual({ 'Fn::GetAtt': [apiId(pipeline.fanout.function), 'Arn'] });
    const roleId = schedule.Target.RoleArn['Fn::GetAtt'][0];
    expect(roleId).toBe(apiId(pipeline.scheduleRole));
    const rolePolicies = Object.values(
      api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }),
    ).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
    expect(rolePolicies.flatMap((statement: PolicyStatement) => [statement.Action].flat())).toEqual([
      'lambda:InvokeFunction',
    ]);
  });

  it('takes the schedule and the concurrency from the context, and refuses a bad schedule', () => {
    // Prepare
    const configured = appWithoutBundling({
      context: { usageSyncSchedule: 'rate(12 hours)', usageSyncConcurrency: '20' },
    });

    // Act
    const built = buildApp(configured);
    const template = configured.synth().getStackByName(built.api.stackName).template;

    // Assess
    const resources = Object.values(template.Resources) as {
      Type: string;
      Properties: Record<string, unknown>;
    }[];
    expect(
      resources.find(
        (resource) =>
          resource.Type === 'AWS::Scheduler::Schedule' &&
          resource.Properties.Description === 'Starts the usage sync of every connected org and provider',
      )?.Properties.ScheduleExpression,
    ).toBe('rate(12 hours)');
    expect(
      resources
        .filter((resource) => resource.Type === 'AWS::Lambda::EventSourceMapping')
        .map((resource) => resource.Properties.ScalingConfig)
        .filter(Boolean),
    ).toEqual([{ MaximumConcurrency: 20 }]);
    expect(() => buildApp(appWithoutBundling({ context: { usageSyncSchedule: 'daily' } }))).toThrow(
      /usageSyncSchedule: must be an EventBridge Scheduler expression/,
    );
  });

  it('has a standard queue redriving to its dead-letter queue after 3 receives, watched by an alarm', () => {
    // Assess: the visibility timeout is 6x the function's 15 minutes (Lambda's guidance).
    api.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 5400,
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [apiId(pipeline.deadLetterQueue), 'Arn'] },
        maxReceiveCount: 3,
      },
    });
    expect(api.findResources('AWS::SQS::Queue', { Properties: { FifoQueue: true } })).not.toHaveProperty(
      apiId(pipeline.queue),
    );
    api.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': [apiId(pipeline.deadLetterQueue), 'QueueName'] } },
      ],
      Threshold: 0,
    });
  });

  it('consumes the queue one message per invocation, at most 5 at once, with partial batch failures', () => {
    // Assess
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: apiId(pipeline.sync.function) },
      EventSourceArn: { 'Fn::GetAtt': [apiId(pipeline.queue), 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
    api.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: Match.absent(),
      Timeout: 900,
      MemorySize: 3008,
      Environment: { Variables: Match.objectLike({ USAGE_SYNC_QUEUE_URL: { Ref: apiId(pipeline.queue) } }) },
    });
    // A finish that crashed is claimed again only after the function could have run to its end.
    expect(FINISH_CLAIM_SECONDS).toBeGreaterThan(900);
  });

  it('grants each function only what it does', () => {
    // Act
    const sync = statementsOf(pipeline.sync);
    const fanoutActions = actionsOf(pipeline.fanout);

    // Assess: both send to the sync queue only; only the sync function assumes the onboarding
    // roles, consumes the queue and invokes the plan computation.
    for (const serviceFunction of [pipeline.fanout, pipeline.sync]) {
      const queueStatements = statementsOf(serviceFunction).filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('sqs:')),
      );
      expect(queueStatements.flatMap((statement) => [statement.Action].flat())).toContain('sqs:SendMessage');
      for (const statement of queueStatements) {
        expect(statement.Resource).toEqual({ 'Fn::GetAtt': [apiId(pipeline.queue), 'Arn'] });
      }
    }
    expect(sync.filter((statement) => [statement.Action].flat().includes('sts:AssumeRole'))).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Resource: 'arn:aws:iam::*:role/commitment-planning-purchaser',
      },
    ]);
    expect(actionsOf(pipeline.sync)).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'lambda:InvokeFunction']),
    );
    expect(fanoutActions).not.toContain('sts:AssumeRole');
    expect(fanoutActions).not.toContain('sqs:ReceiveMessage');
    expect(fanoutActions).not.toContain('lambda:InvokeFunction');
  });
});
