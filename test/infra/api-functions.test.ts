import { Match } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { synthesizeService } from './service-app';

interface CfnFunctionResource {
  readonly Properties: {
    readonly Runtime: string;
    readonly Architectures: string[];
    readonly Handler: string;
    readonly MemorySize: number;
    readonly Timeout: number;
    readonly Role: { 'Fn::GetAtt': [string, 'Arn'] };
    readonly Environment: { Variables: Record<string, unknown> };
    readonly LoggingConfig: { LogGroup: { Ref: string }; LogFormat: string; ApplicationLogLevel: string };
  };
}

interface PolicyStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: Record<string, Record<string, string[]>>;
}

describe('API functions', () => {
  const { api, stacks } = synthesizeService();
  const functions = Object.values(
    api.findResources('AWS::Lambda::Function') as Record<string, CfnFunctionResource>,
  );
  const logicalId = (serviceFunction: ServiceFunction) =>
    stacks.api.getLogicalId(serviceFunction.function.node.defaultChild as CfnFunction);
  const statementsOf = (serviceFunction: ServiceFunction): PolicyStatement[] => {
    const roleId = stacks.api.getLogicalId(serviceFunction.role.node.defaultChild as CfnFunction);
    const policies = api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  };
  const tableStatementsOf = (serviceFunction: ServiceFunction) =>
    statementsOf(serviceFunction).filter((statement) =>
      [statement.Action].flat()[0]?.startsWith('dynamodb:'),
    );
  const tableArn = {
    'Fn::ImportValue': expect.stringMatching(/^CommitmentPlanning-Stateful:ExportsOutputFnGetAttTable.*Arn/),
  };

  /**
   * The groups that serve plans or run the engine in a request (plan-coverage, commitments-chart),
   * and the computation.
   */
  const planGroups = ['plans', 'plan-coverage', 'commitments-chart', 'partner-purchase-plans'] as const;
  const planGroupFunctions = planGroups.map(
    (group) => stacks.api.groupFunctions.get(group) as ServiceFunction,
  );
  const planFunctions = [...planGroupFunctions, stacks.api.planComputation];
  /** The functions that run the plan engine: the computation, resource matches and the chart. */
  const engineFunctions = [
    stacks.api.planComputation,
    stacks.api.groupFunctions.get('plan-coverage') as ServiceFunction,
    stacks.api.groupFunctions.get('commitments-chart') as ServiceFunction,
  ];
  /**
   * The functions that invoke the computation: those serving plans, on a stale read, and
   * plan-purchases, for the catalog's terms of the offers a plan buys and to name an outdated
   * plan's successor (docs/purchases.md).
   */
  const servingFunctions = (['plans', 'partner-purchase-plans', 'plan-purchases'] as const).map(
    (group) => stacks.api.groupFunctions.get(group) as ServiceFunction,
  );
  const propertiesOf = (serviceFunction: ServiceFunction) =>
    (api.findResources('AWS::Lambda::Function')[logicalId(serviceFunction)] as CfnFunctionResource)
      .Properties;

  it('runs every function on Node.js 24 on arm64, with 512 MB and 10 s unless it computes plans, purchases or verifies clouds', () => {
    // Assess: the route functions, the authorizer, the plan computation, the purchase processor
    // and the sweep, the usage sync's fan-out and sync function (usage-sync-pipeline.test.ts), the
    // catalog refresh (catalog-refresh.test.ts).
    expect(functions).toHaveLength(stacks.api.groupFunctions.size + 7);
    const longerFunctionIds = new Set(
      [
        ...planFunctions,
        ...servingFunctions,
        stacks.api.purchases.processor,
        stacks.api.purchases.sweep,
        stacks.api.usageSync.fanout,
        stacks.api.usageSync.sync,
        stacks.api.catalogRefresh.refresh,
        stacks.api.groupFunctions.get('onboarding-aws-verify') as ServiceFunction,
        stacks.api.groupFunctions.get('onboarding-azure-verify') as ServiceFunction,
      ].map(logicalId),
    );
    for (const [id, { Properties }] of Object.entries(
      api.findResources('AWS::Lambda::Function') as Record<string, CfnFunctionResource>,
    )) {
      expect(Properties.Runtime).toBe('nodejs24.x');
      expect(Properties.Architectures).toEqual(['arm64']);
      expect(Properties.Handler).toBe('index.handler');
      if (longerFunctionIds.has(id)) continue;
      expect(Properties.MemorySize).toBe(512);
      expect(Properties.Timeout).toBe(10);
    }
  });

  it('gives the functions that run the plan engine a full vCPU (1769 MB)', () => {
    for (const engineFunction of engineFunctions) {
      expect(propertiesOf(engineFunction).MemorySize).toBe(1769);
    }
    for (const servingFunction of servingFunctions) {
      expect(propertiesOf(servingFunction).MemorySize).toBe(512);
    }
  });

  it('gives the plan routes 28 s, under API Gateway’s 29 s, and the computation they wait for 25 s', () => {
    for (const planFunction of [...planGroupFunctions, ...servingFunctions]) {
      expect(propertiesOf(planFunction).Timeout).toBe(28);
    }
    expect(propertiesOf(stacks.api.planComputation).Timeout).toBe(25);
  });

  it('lets the plan-serving and plan-purchases functions invoke the plan computation, by name, and no other function', () => {
    const computationArn = { 'Fn::GetAtt': [logicalId(stacks.api.planComputation), 'Arn'] };
    const computationName = { Ref: logicalId(stacks.api.planComputation) };
    const invoking = [stacks.api.authorizerFunction, ...stacks.api.groupFunctions.values()].filter(
      (serviceFunction) =>
        statementsOf(serviceFunction).some((statement) =>
          [statement.Action].flat().includes('lambda:InvokeFunction'),
        ),
    );
    expect(invoking.map(logicalId).sort()).toEqual(servingFunctions.map(logicalId).sort());
    for (const servingFunction of servingFunctions) {
      const invokeStatements = statementsOf(servingFunction).filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('lambda:')),
      );
      expect(invokeStatements).toEqual([
        { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: computationArn },
      ]);
      expect(propertiesOf(servingFunction).Environment.Variables.PLAN_COMPUTATION_FUNCTION).toEqual(
        computationName,
      );
    }
  });

  it('gives every function the table name, Powertools settings and source-mapped stack traces', () => {
    // The purchase pipeline's variables are checked in purchase-pipeline.test.ts, the usage
    // sync's in usage-sync-pipeline.test.ts, the catalog refresh's in catalog-refresh.test.ts, the OAuth ones
    // below, the sign-in mail sender and code key in sign-in-mail.test.ts, the tenant limits in api-throttling.test.ts, the onboarding functions' in onboarding.test.ts.
    const checkedElsewhere = [
      'PLAN_COMPUTATION_FUNCTION',
      'MAIL_FROM',
      'TENANT_RATE_LIMIT',
      'TENANT_BURST_LIMIT',
      'PURCHASE_QUEUE_URL',
      'USAGE_SYNC_QUEUE_URL',
      'MARKETPLACE',
      'ISSUER_URL',
      'SIGNING_KEY_ALIAS',
      'SIGNING_KEY_PREVIOUS_ALIAS',
      'SERVICE_AWS_ACCOUNT_ID',
      'CONSENT_STATE_SECRET_ARN',
      'SIGN_IN_CODE_SECRET_ARN',
      'PUBLIC_API_URL',
      'CATALOG_REFRESH_REGIONS',
    ];
    for (const { Properties } of functions) {
      const variables = Object.fromEntries(
        Object.entries(Properties.Environment.Variables).filter(([name]) => !checkedElsewhere.includes(name)),
      );
      expect(variables).toEqual({
        TABLE_NAME: {
          'Fn::ImportValue': expect.stringMatching(/^CommitmentPlanning-Stateful:ExportsOutputRefTable/),
        },
        POWERTOOLS_SERVICE_NAME: 'commitment-planning',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      });
    }
  });

  it('tells the authorizer and every route function the issuer and the signing key aliases', () => {
    for (const serviceFunction of [stacks.api.authorizerFunction, ...stacks.api.groupFunctions.values()]) {
      expect(propertiesOf(serviceFunction).Environment.Variables).toMatchObject({
        ISSUER_URL: expect.anything(),
        SIGNING_KEY_ALIAS: 'alias/commitment-planning/oauth-signing',
        SIGNING_KEY_PREVIOUS_ALIAS: 'alias/commitment-planning/oauth-signing-previous',
      });
    }
  });

  it('logs every function as JSON to its own log group kept for a month', () => {
    // Prepare
    const logGroupIds = functions.map(({ Properties }) => Properties.LoggingConfig.LogGroup.Ref);

    // Assess
    expect(new Set(logGroupIds).size).toBe(functions.length);
    for (const { Properties } of functions) {
      expect(Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: 'INFO' });
      expect(
        api.findResources('AWS::Logs::LogGroup')[Properties.LoggingConfig.LogGroup.Ref]?.Properties,
      ).toEqual({
        RetentionInDays: 30,
      });
    }
  });

  it('gives every function its own role, with no managed policy, writing only to its log group', () => {
    // Prepare
    const all = [
      stacks.api.authorizerFunction,
      ...stacks.api.groupFunctions.values(),
      stacks.api.planComputation,
      stacks.api.purchases.processor,
      stacks.api.purchases.sweep,
      stacks.api.usageSync.fanout,
      stacks.api.usageSync.sync,
      stacks.api.catalogRefresh.refresh,
    ];
    expect(all).toHaveLength(functions.length);

    // Assess
    api.resourcePropertiesCountIs('AWS::IAM::Role', { ManagedPolicyArns: Match.anyValue() }, 0);
    for (const serviceFunction of all) {
      const logStatements = statementsOf(serviceFunction).filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('logs:')),
      );
      expect(logStatements).toEqual([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: {
            'Fn::GetAtt': [
              stacks.api.getLogicalId(serviceFunction.logGroup.node.defaultChild as never),
              'Arn',
            ],
          },
        },
      ]);
    }
  });

  it("lets the plan functions read orgs, usage and commitments and keep plans, in org and plan partitions only, and list an org's purchases from the index", () => {
    for (const planFunction of planFunctions) {
      // Act
      const statements = tableStatementsOf(planFunction);

      // Assess
      expect(statements).toEqual([
        {
          Effect: 'Allow',
          Action: [
            'dynamodb:BatchGetItem',
            'dynamodb:BatchWriteItem',
            'dynamodb:DeleteItem',
            'dynamodb:GetItem',
            'dynamodb:PutItem',
            'dynamodb:Query',
            'dynamodb:UpdateItem',
          ],
          Resource: tableArn,
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORG#*', 'PLAN#*'] } },
        },
        {
          Effect: 'Allow',
          Action: 'dynamodb:Query',
          Resource: { 'Fn::Join': ['', [tableArn, '/index/GSI1']] },
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ORG#*'] } },
        },
      ]);
    }
  });

  it('lets the other route functions read and write items of the table and its GSI1 index, nothing else', () => {
    const others = [...stacks.api.groupFunctions].filter(
      ([group]) => !(planGroups as readonly string[]).includes(group) && group !== 'jwks',
    );
    expect(others.length).toBeGreaterThan(0);
    for (const [, groupFunction] of others) {
      // Act
      const statements = tableStatementsOf(groupFunction);

      // Assess
      expect(statements).toEqual([
        {
          Effect: 'Allow',
          Action: [
            'dynamodb:BatchGetItem',
            'dynamodb:BatchWriteItem',
            'dynamodb:ConditionCheckItem',
            'dynamodb:DeleteItem',
            'dynamodb:GetItem',
            'dynamodb:PutItem',
            'dynamodb:Query',
            'dynamodb:Scan',
            'dynamodb:UpdateItem',
          ],
          Resource: [tableArn, { 'Fn::Join': ['', [tableArn, '/index/GSI1']] }],
        },
      ]);
    }
  });

  it('lets the authorizer read items and update only the last use of API keys', () => {
    // Act
    const statements = tableStatementsOf(stacks.api.authorizerFunction);

    // Assess
    expect(statements).toEqual([
      { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: tableArn },
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: tableArn,
        Condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['KEY#*'] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', 'lastUsedAt'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_OLD', 'UPDATED_NEW'] },
        },
      },
    ]);
  });

  it('lets API Gateway invoke each route function from this API only, and the authorizer as the authorizer', () => {
    // Prepare
    const permissions = Object.values(
      api.findResources('AWS::Lambda::Permission', { Properties: { Principal: 'apigateway.amazonaws.com' } }),
    );

    // Assess
    expect(permissions).toHaveLength(stacks.api.groupFunctions.size + 1);
    for (const groupFunction of stacks.api.groupFunctions.values()) {
      const [permission] = permissions.filter(
        (candidate) => candidate.Properties.FunctionName['Fn::GetAtt']?.[0] === logicalId(groupFunction),
      );
      expect(permission?.Properties.Principal).toBe('apigateway.amazonaws.com');
      expect(JSON.stringify(permission?.Properties.SourceArn)).toMatch(/"RestApi[0-9A-F]+"\},"\/\*\/\*\/\*"/);
    }
    const [authorizerPermission] = permissions.filter(
      (candidate) =>
        candidate.Properties.FunctionName['Fn::GetAtt']?.[0] === logicalId(stacks.api.authorizerFunction),
    );
    expect(JSON.stringify(authorizerPermission?.Properties.SourceArn)).toContain('/authorizers/');
  });
});
