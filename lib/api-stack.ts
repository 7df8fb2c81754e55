import { existsSync } from 'node:fs';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { LambdaIntegration, RequestAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { FunctionGroup } from '../shared/contract/operation-contract';
import { servedRoutes } from '../shared/contract/operations';
import {
  defaultTenantThrottle,
  type TenantThrottle,
  tenantThrottleProblem,
} from '../shared/http/tenant-rate-limit';
import { tableDefinition } from '../shared/store/table';
import { ServiceRestApi } from './constructs/rest-api';
import { type LogLevel, ServiceFunction } from './constructs/service-function';
import { functionEntry } from './project-paths';

export interface ApiStackProps extends StackProps {
  /** The service table (from the stateful stack). */
  readonly table: ITable;
  /** @default 'prod' */
  readonly stageName?: string;
  /** Steady-state requests per second across the stage. @default 50 */
  readonly throttlingRateLimit?: number;
  /** @default 100 */
  readonly throttlingBurstLimit?: number;
  /**
   * Each API key's own rate (requests/s) and burst, on top of the stage's; the local server
   * applies the same. @default defaultTenantThrottle (10 requests/s, bursts of 20)
   */
  readonly tenantThrottle?: TenantThrottle;
  /** X-Ray tracing on the stage and every function. @default false */
  readonly tracing?: boolean;
  /** Memory of every function but those that compute plans, in MB. @default 512 */
  readonly memorySize?: number;
  /**
   * Memory of the functions that compute plans in a request (the plan groups), in MB: CPU grows
   * with memory, and 1769 MB is one full vCPU. @default 1769
   */
  readonly planMemorySize?: number;
  /** Retention of the access log and of every function's log. @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default 'INFO' */
  readonly logLevel?: LogLevel;
  /** ARN of a regional WAFv2 web ACL for the stage. @default - no web ACL */
  readonly webAclArn?: string;
}

/** Powertools service name of every function. */
export const serviceName = 'commitment-planning';

/**
 * What `grantReadWriteData` allows on items, granted on the table and each named index rather
 * than on `<table>/index/*`: no wildcard resource to justify.
 */
const tableItemActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/**
 * What the plan groups' functions do with items (docs/plans-api.md): read orgs, usage and
 * commitments; read, write and delete plans and plan sets. No scan, and only in partitions of
 * orgs (`ORG#...`, usage and commitments included) and plans (`PLAN#...`): never an API key's,
 * a user's or an OAuth item.
 */
const planItemActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;
const planPartitionPatterns = ['ORG#*', 'PLAN#*'] as const;

/**
 * Groups whose functions run the plan engine in a request (plans when stored ones are missing or
 * stale, resource matches over part of a lookback, the chart): more memory (CPU), and a timeout
 * just under API Gateway's 29 s integration timeout.
 */
const planGroups: ReadonlySet<FunctionGroup> = new Set(['plans', 'plan-coverage', 'partner-purchase-plans']);
const planFunctionTimeout = Duration.seconds(28);

/** API key items live under `KEY#<keyId>` (DESIGN §6). */
const apiKeyPartitionPrefix = 'KEY#';
/** The one attribute the authorizer writes: an API key's last use. */
const apiKeyLastUsedAttribute = 'lastUsedAt';

/**
 * The HTTP side: the REST API, its Lambda REQUEST authorizer, and one function per function group
 * of the route manifest (`functions/<group>/handler.ts`), so a new group or route in the manifest
 * is deployed without touching this stack.
 */
export class ApiStack extends Stack {
  readonly api: ServiceRestApi;
  readonly authorizerFunction: ServiceFunction;
  readonly groupFunctions: ReadonlyMap<FunctionGroup, ServiceFunction>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { table } = props;
    const tenantThrottle = props.tenantThrottle ?? defaultTenantThrottle;
    const throttleProblem = tenantThrottleProblem(tenantThrottle);
    if (throttleProblem) throw new Error(`tenantThrottle: ${throttleProblem}`);

    const tableAndIndexArns = [
      table.tableArn,
      ...tableDefinition.globalIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`),
    ];

    const functionSettings = {
      serviceName,
      environment: { TABLE_NAME: table.tableName },
      memorySize: props.memorySize,
      logRetention: props.logRetention,
      logLevel: props.logLevel,
      tracing: props.tracing,
    };

    this.authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      ...functionSettings,
      entry: functionEntry('authorizer'),
      description: 'Authenticates the API key or Bearer JWT of every non-public request',
    });
    // The authorizer reads stored credentials and records an API key's last use, and may write
    // nothing else: UpdateItem is limited to API key items (`KEY#...`), to requests naming no
    // attribute but PK, SK and `lastUsedAt` (in any expression), returning touched attributes only.
    this.authorizerFunction.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [table.tableArn] }),
    );
    this.authorizerFunction.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${apiKeyPartitionPrefix}*`] },
          'ForAllValues:StringEquals': {
            'dynamodb:Attributes': [
              tableDefinition.partitionKey,
              tableDefinition.sortKey,
              apiKeyLastUsedAttribute,
            ],
          },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_OLD', 'UPDATED_NEW'] },
        },
      }),
    );

    // A group is deployed once its handler exists; the operations of the others are not routed yet.
    const routes = servedRoutes((group) => existsSync(functionEntry(group)));
    const groupFunctions = new Map<FunctionGroup, ServiceFunction>();
    for (const group of new Set(routes.map((route) => route.group))) {
      const computesPlans = planGroups.has(group);
      const groupFunction = new ServiceFunction(this, group, {
        ...functionSettings,
        ...(computesPlans ? { memorySize: props.planMemorySize ?? 1769, timeout: planFunctionTimeout } : {}),
        entry: functionEntry(group),
        description: `Serves the ${group} routes`,
      });
      groupFunction.role.addToPrincipalPolicy(
        computesPlans
          ? new PolicyStatement({
              actions: [...planItemActions],
              resources: [table.tableArn],
              conditions: {
                'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...planPartitionPatterns] },
              },
            })
          : new PolicyStatement({ actions: [...tableItemActions], resources: tableAndIndexArns }),
      );
      groupFunctions.set(group, groupFunction);
    }
    this.groupFunctions = groupFunctions;

    // No identity sources and no cache, on purpose. API Gateway calls the authorizer only when every
    // listed identity source is present, and a caller sends either `x-api-key` or
    // `Authorization: Bearer`, not both; and a cached Allow would outlive a key revoked meanwhile.
    const authorizer = new RequestAuthorizer(this, 'RequestAuthorizer', {
      handler: this.authorizerFunction.function,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    this.api = new ServiceRestApi(this, 'RestApi', {
      restApiName: 'commitment-planning',
      description: 'Commitment Planning and Partner Onboarding Service',
      stageName: props.stageName,
      throttlingRateLimit: props.throttlingRateLimit,
      throttlingBurstLimit: props.throttlingBurstLimit,
      tenantThrottle,
      tracing: props.tracing,
      accessLogRetention: props.logRetention,
      webAclArn: props.webAclArn,
    });

    // One integration per function, and one invoke permission per function for this API instead
    // of one per method: a function's resource policy stays far below Lambda's 20 KB limit however
    // many routes its group gains.
    const integrations = new Map(
      [...groupFunctions].map(([group, groupFunction]) => [
        group,
        new LambdaIntegration(groupFunction.function, { scopePermissionToMethod: false }),
      ]),
    );
    this.api.serveRoutes(
      routes,
      (route) => {
        const integration = integrations.get(route.group);
        if (!integration) throw new Error(`No function for group ${route.group}`);
        return integration;
      },
      authorizer,
    );

    new CfnOutput(this, 'ApiUrl', {
      value: this.api.restApi.url,
      description: 'Base URL of the API (the stage URL)',
    });
    new CfnOutput(this, 'TenantUsagePlanId', {
      value: this.api.tenantUsagePlan.usagePlanId,
      description: 'The usage plan each API key is added to (bin/admin.ts: USAGE_PLAN_ID)',
    });
  }
}
