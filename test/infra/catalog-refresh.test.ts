import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import {
  CATALOG_REFRESH_KEPT_METRIC,
  METRICS_NAMESPACE,
} from '../../functions/catalog-refresh/refresh-metric';
import { serviceName } from '../../lib/api-stack';
import { buildApp } from '../../lib/app';
import { appWithoutBundling, synthesizeService } from './service-app';

interface PolicyStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: unknown;
}

const tableArn = {
  'Fn::ImportValue': expect.stringMatching(/^CommitmentPlanning-Stateful:ExportsOutputFnGetAttTable.*Arn/),
};

/**
 * The deployed catalog refresh (docs/catalog.md, Deployed refresh; docs/deploy.md): its schedule
 * and the context that moves it, its dead-letter queue, its two alarms and its grants.
 */
describe('the catalog refresh', () => {
  const { api, stacks } = synthesizeService();
  const refresh = stacks.api.catalogRefresh;
  const apiId = (construct: { node: { defaultChild?: unknown } }) =>
    stacks.api.getLogicalId(construct.node.defaultChild as CfnResource);
  const statementsOfRole = (roleId: string): PolicyStatement[] =>
    Object.values(
      api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }),
    ).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  const functionArn = { 'Fn::GetAtt': [apiId(refresh.refresh.function), 'Arn'] };
  const deadLetterArn = { 'Fn::GetAtt': [apiId(refresh.deadLetterQueue), 'Arn'] };

  it('runs weekly by default, through a role that may only invoke it and report to its dead-letter queue', () => {
    // Act
    const schedule = Object.values(
      api.findResources('AWS::Scheduler::Schedule', { Properties: { Target: { Arn: functionArn } } }),
    );

    // Assess
    expect(schedule).toHaveLength(1);
    const { ScheduleExpression, State, Target } = schedule[0]?.Properties ?? {};
    expect(ScheduleExpression).toBe('cron(0 4 ? * MON *)');
    expect(State).toBe('ENABLED');
    expect(Target.DeadLetterConfig).toEqual({ Arn: deadLetterArn });
    expect(Target.RoleArn).toEqual({ 'Fn::GetAtt': [apiId(refresh.scheduleRole), 'Arn'] });
    expect(statementsOfRole(apiId(refresh.scheduleRole))).toEqual([
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: functionArn },
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: deadLetterArn },
    ]);
  });

  it('takes its schedule and regions from the context, and refuses bad ones naming the key', () => {
    // Prepare
    const configured = appWithoutBundling({
      context: { catalogRefreshSchedule: 'rate(1 day)', catalogRefreshRegions: 'eu-west-2, northeurope' },
    });

    // Act
    const built = buildApp(configured);
    const resources = Object.values(
      configured.synth().getStackByName(built.api.stackName).template.Resources,
    ) as { Type: string; Properties: Record<string, unknown> }[];

    // Assess
    const ofRefresh = (resource: { Properties: Record<string, unknown> }) =>
      JSON.stringify(resource.Properties).includes('CatalogRefresh');
    expect(
      resources.find((resource) => resource.Type === 'AWS::Scheduler::Schedule' && ofRefresh(resource))
        ?.Properties.ScheduleExpression,
    ).toBe('rate(1 day)');
    const environment = resources.find(
      (resource) =>
        resource.Type === 'AWS::Lambda::Function' &&
        String(resource.Properties.Description).startsWith('Refreshes the price catalog'),
    )?.Properties.Environment as { Variables: Record<string, unknown> };
    expect(environment.Variables.CATALOG_REFRESH_REGIONS).toBe('eu-west-2,northeurope');
    const refused = (context: Record<string, string>) => () => buildApp(appWithoutBundling({ context }));
    expect(refused({ catalogRefreshSchedule: 'weekly' })).toThrow(
      /^catalogRefreshSchedule: must be an EventBridge Scheduler expression for a recurring schedule.*got weekly$/,
    );
    expect(refused({ catalogRefreshSchedule: 'rate(1 weeks)' })).toThrow(
      /^catalogRefreshSchedule: a rate's unit is minute\(s\), hour\(s\) or day\(s\)/,
    );
    expect(refused({ catalogRefreshRegions: 'us-east-1,,eastus' })).toThrow(
      /^catalogRefreshRegions: must be region names such as us-east-1 or westeurope, comma-separated; got $/,
    );
  });

  it('sends a run that failed after two retries to its own encrypted dead-letter queue, watched by an alarm', () => {
    // Assess
    api.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: apiId(refresh.refresh.function) },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: deadLetterArn } },
    });
    const queue = api.findResources('AWS::SQS::Queue')[apiId(refresh.deadLetterQueue)]?.Properties;
    expect(queue).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 1_209_600 });
    expect(queue).not.toHaveProperty('FifoQueue');
    api.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': [apiId(refresh.deadLetterQueue), 'QueueName'] } },
      ],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('alarms on the metric a refresh that kept the last good catalog emits, until a refresh succeeds', () => {
    // Act
    const alarm = api.findResources('AWS::CloudWatch::Alarm')[apiId(refresh.keptLastGoodAlarm)]?.Properties;

    // Assess: the names and the dimension Powertools Metrics writes (catalog-refresh-handler.ts).
    expect(alarm).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: CATALOG_REFRESH_KEPT_METRIC,
      Dimensions: [{ Name: 'service', Value: serviceName }],
      Statistic: 'Maximum',
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      TreatMissingData: 'ignore',
    });
  });

  it('streams the price lists with 15 minutes and 3008 MB', () => {
    const properties =
      api.findResources('AWS::Lambda::Function')[apiId(refresh.refresh.function)]?.Properties;
    expect(properties).toMatchObject({ Timeout: 900, MemorySize: 3008 });
    expect(properties.Environment.Variables.CATALOG_REFRESH_REGIONS).toBe(
      'us-east-1,us-west-2,eu-west-1,eastus,westeurope',
    );
  });

  it('may touch the catalog partitions, list the orgs and raise their plan inputs, and nothing else', () => {
    // Act
    const statements = statementsOfRole(apiId(refresh.refresh.role)).filter(
      (statement) => ![statement.Action].flat().some((action) => action.startsWith('logs:')),
    );

    // Assess: no wildcard action, no scan, no delete; the on-failure destination's send only.
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:BatchWriteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
        Resource: tableArn,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CATALOG', 'CATALOG#*'] } },
      },
      {
        Effect: 'Allow',
        Action: 'dynamodb:Query',
        Resource: { 'Fn::Join': ['', [tableArn, '/index/GSI1']] },
      },
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: tableArn,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORG#*'] } },
      },
      {
        Effect: 'Allow',
        Action: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
        Resource: deadLetterArn,
      },
    ]);
    // The stateful stack's purchase queues are not its own.
    expect(JSON.stringify(statements)).not.toContain('Purchase');
  });
});
