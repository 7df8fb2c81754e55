import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { LambdaIntegration, RequestAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { groupDeployments } from '../functions/deployments';
import type { GroupDeployment } from '../functions/group-deployment';
import { deployment as planComputationDeployment } from '../functions/plan-computation/deployment';
import type { FunctionGroup } from '../shared/contract/operation-contract';
import { functionGroups, routes } from '../shared/contract/operations';
import {
  defaultTenantThrottle,
  type TenantThrottle,
  tenantThrottleProblem,
} from '../shared/http/tenant-rate-limit';
import { tableDefinition } from '../shared/store/table';
import { CatalogRefresh } from './constructs/catalog-refresh';
import { OnboardingSettings } from './constructs/onboarding-settings';
import { PurchasePipeline } from './constructs/purchase-pipeline';
import { ServiceRestApi } from './constructs/rest-api';
import { type LogLevel, ServiceFunction } from './constructs/service-function';
import type { SigningKeys } from './constructs/signing-keys';
import { UsageSyncPipeline } from './constructs/usage-sync-pipeline';
import type { MarketplaceConfig } from './marketplace-config';
import { functionEntry } from './project-paths';
import { tableItemAccess } from './table-item-access';

export interface ApiStackProps extends StackProps {
  /** The service table (from the stateful stack). */
  readonly table: ITable;
  /** The OAuth signing keys (from the stateful stack). */
  readonly signingKeys: SigningKeys;
  /**
   * The API's base URL, the OAuth issuer: a custom domain mapped at its root, without a trailing
   * slash (docs/deploy.md). @default - the stage's execute-api URL
   */
  readonly baseUrl?: string;
  /**
   * The SES-verified address sign-in codes are mailed from (docs/oauth.md).
   * @default 'sign-in@example.com' (set `-c mailFrom=...` to a verified identity before use)
   */
  readonly mailFrom?: string;
  /** The FIFO purchase queue (from the stateful stack). */
  readonly purchaseQueue: IQueue;
  /** Its dead-letter queue (from the stateful stack). */
  readonly purchaseDeadLetterQueue: IQueue;
  /** What the purchase processor buys from. @default { kind: 'simulated' } */
  readonly marketplace?: MarketplaceConfig;
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
   * Memory of the functions that run the plan engine (plan-computation, plan-coverage's resource
   * matches and commitments-chart's chart), in MB: CPU grows with memory, and 1769 MB is one full vCPU.
   * @default 1769
   */
  readonly planMemorySize?: number;
  /** Retention of the access log and of every function's log. @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default 'INFO' */
  readonly logLevel?: LogLevel;
  /** ARN of a regional WAFv2 web ACL for the stage. @default - no web ACL */
  readonly webAclArn?: string;
  /**
   * When the usage sync runs (docs/usage-sync.md, Deployed): an EventBridge Scheduler expression,
   * context `usageSyncSchedule`. @default defaultUsageSyncSchedule (every day at 03:00 UTC)
   */
  readonly usageSyncSchedule?: string;
  /** Usage sync invocations at once, context `usageSyncConcurrency`. @default 5 */
  readonly usageSyncConcurrency?: number;
  /**
   * When the catalog refresh runs (docs/catalog.md, Deployed refresh): a recurring EventBridge
   * Scheduler expression, context `catalogRefreshSchedule`. @default weekly, Mondays at 04:00 UTC
   */
  readonly catalogRefreshSchedule?: string;
  /** The regions it reads, context `catalogRefreshRegions`. @default the bundled catalog's */
  readonly catalogRefreshRegions?: readonly string[];
}

/** Powertools service name of every function. */
export const serviceName = 'commitment-planning';

/** The sender of sign-in codes until the operator names a verified one. */
const defaultMailFrom = 'sign-in@example.com';

/** API key items live under `KEY#<keyId>` (docs/data-model.md). */
const apiKeyPartitionPrefix = 'KEY#';
/** The one attribute the authorizer writes: an API key's last use. */
const apiKeyLastUsedAttribute = 'lastUsedAt';

/**
 * The HTTP side: the REST API, its Lambda REQUEST authorizer, and one function per function group
 * of the route manifest (`functions/<group>/handler.ts`), so a new group or route in the manifest
 * is deployed without touching this stack; the purchase pipeline's functions, the usage sync and
 * the catalog refresh.
 */
export class ApiStack extends Stack {
  readonly api: ServiceRestApi;
  readonly authorizerFunction: ServiceFunction;
  readonly groupFunctions: ReadonlyMap<FunctionGroup, ServiceFunction>;
  readonly purchases: PurchasePipeline;
  /** The scheduled usage sync: fan-out, the sync queue and its function. */
  readonly usageSync: UsageSyncPipeline;
  /** Computes plans that are missing or stale, invoked by the plan-serving functions. */
  readonly planComputation: ServiceFunction;
  /** The scheduled catalog refresh: its function, schedule, dead-letter queue and alarms. */
  readonly catalogRefresh: CatalogRefresh;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { table } = props;
    const tenantThrottle = props.tenantThrottle ?? defaultTenantThrottle;
    const throttleProblem = tenantThrottleProblem(tenantThrottle);
    if (throttleProblem) throw new Error(`tenantThrottle: ${throttleProblem}`);

    const items = tableItemAccess(table);

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

    this.purchases = new PurchasePipeline(this, 'Purchases', {
      queue: props.purchaseQueue,
      deadLetterQueue: props.purchaseDeadLetterQueue,
      marketplace: props.marketplace ?? { kind: 'simulated' },
      functionSettings,
    });
    this.purchases.processor.role.addToPrincipalPolicy(items.all());
    this.purchases.sweep.role.addToPrincipalPolicy(items.all());

    // What a group's deployment declares (functions/<group>/deployment.ts): its memory, timeout
    // and table access here; its grants where the resources they name are defined.
    const planMemorySize = props.planMemorySize ?? 1769;
    const deployedAs = (deployment: GroupDeployment) => ({
      ...(deployment.memory === 'planEngine' ? { memorySize: planMemorySize } : {}),
      ...(deployment.timeoutSeconds === undefined
        ? {}
        : { timeout: Duration.seconds(deployment.timeoutSeconds) }),
    });
    const grantTableItems = (serviceFunction: ServiceFunction, deployment: GroupDeployment) => {
      if (deployment.tableItems === 'all') serviceFunction.role.addToPrincipalPolicy(items.all());
      else if (deployment.tableItems === 'plans') {
        for (const statement of items.plans()) serviceFunction.role.addToPrincipalPolicy(statement);
      }
    };

    // The one function that carries the plan engine and the catalog for plans (docs/plans-api.md,
    // Freshness): the serving functions invoke it on a stale read and wait for its answer.
    this.planComputation = new ServiceFunction(this, 'PlanComputation', {
      ...functionSettings,
      ...deployedAs(planComputationDeployment),
      entry: functionEntry('plan-computation'),
      description: "Computes an org's plans for a provider when they are missing or stale",
    });
    grantTableItems(this.planComputation, planComputationDeployment);
    // The processor recomputes the org's plans once a plan's purchases are owned.
    this.allowPlanComputation(this.purchases.processor);

    this.usageSync = new UsageSyncPipeline(this, 'UsageSync', {
      schedule: props.usageSyncSchedule,
      maxConcurrency: props.usageSyncConcurrency,
      functionSettings,
    });
    this.usageSync.fanout.role.addToPrincipalPolicy(items.all());
    this.usageSync.sync.role.addToPrincipalPolicy(items.all());
    // A sync that stored usage computes the org's plans there (its bundle carries no engine).
    this.allowPlanComputation(this.usageSync.sync);

    // Its table access is its own (the catalog's partitions; docs/deploy.md, Permissions).
    this.catalogRefresh = new CatalogRefresh(this, 'CatalogRefresh', {
      schedule: props.catalogRefreshSchedule,
      regions: props.catalogRefreshRegions,
      table,
      functionSettings,
    });

    const groupFunctions = new Map<FunctionGroup, ServiceFunction>();
    for (const group of functionGroups) {
      const deployment = groupDeployments[group];
      const groupFunction = new ServiceFunction(this, group, {
        ...functionSettings,
        ...deployedAs(deployment),
        entry: functionEntry(group),
        description: `Serves the ${group} routes`,
      });
      grantTableItems(groupFunction, deployment);
      if (deployment.tableItems !== 'none') {
        // The limits the function throttles Bearer requests by, per OAuth client and org
        // (docs/http.md, "Throttling"): the tenants' own, as API keys get from the usage plan.
        groupFunction.function.addEnvironment('TENANT_RATE_LIMIT', String(tenantThrottle.rateLimit));
        groupFunction.function.addEnvironment('TENANT_BURST_LIMIT', String(tenantThrottle.burstLimit));
      }
      if (deployment.grants.includes('invokePlanComputation')) this.allowPlanComputation(groupFunction);
      if (deployment.grants.includes('sendPurchases')) this.purchases.allowSending(groupFunction);
      groupFunctions.set(group, groupFunction);
    }
    this.groupFunctions = groupFunctions;

    // Signing: kms:Sign for the token function only; the public keys for the JWKS function, which
    // publishes them. The authorizer reads the published keys (the JWKS, cached per container) as
    // any resource server reads its issuer's `jwks_uri`: it bundles no KMS client (a smaller,
    // faster cold start on every authorized request) and holds no KMS permission at all.
    const { signingKeys } = props;
    for (const [group, groupFunction] of groupFunctions) {
      const { grants } = groupDeployments[group];
      if (grants.includes('signTokens')) signingKeys.grantSign(groupFunction.role);
      if (grants.includes('sendSignInMail')) {
        this.allowSignInMail(groupFunction, props.mailFrom ?? defaultMailFrom);
      }
      if (grants.includes('readPublicKeys')) signingKeys.grantPublicKeys(groupFunction.role);
    }
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
      ...(props.baseUrl ? { baseUrl: props.baseUrl } : {}),
    });
    const functionOf = (group: FunctionGroup): ServiceFunction => {
      const found = groupFunctions.get(group);
      if (!found) throw new Error(`No function for group ${group}`);
      return found;
    };
    new OnboardingSettings(this, 'Onboarding', {
      onboardingFunction: functionOf('onboarding'),
      consentFunction: functionOf('onboarding-azure-consent'),
      awsVerifyFunction: functionOf('onboarding-aws-verify'),
      azureVerifyFunction: functionOf('onboarding-azure-verify'),
      usageSyncFunction: this.usageSync.sync,
      purchaseProcessorFunction: this.purchases.processor,
      apiBaseUrl: this.api.baseUrl,
    });

    // Every function knows the issuer and the key aliases (the table-less ones too: the JWKS
    // function publishes the keys, the OAuth documents name the issuer).
    const oauthEnvironment = { ISSUER_URL: this.api.baseUrl, ...signingKeys.environment() };
    for (const serviceFunction of [this.authorizerFunction, ...groupFunctions.values()]) {
      for (const [name, value] of Object.entries(oauthEnvironment)) {
        serviceFunction.function.addEnvironment(name, value);
      }
    }

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

  /**
   * The sign-in function mails sign-in codes from `from` with SES v2: it may send as that address
   * (or its domain's identity) and nothing else.
   */
  private allowSignInMail(signInFunction: ServiceFunction, from: string): void {
    signInFunction.function.addEnvironment('MAIL_FROM', from);
    // The key sign-in codes are stored under (an HMAC: docs/oauth.md), read by this function alone.
    const codeKey = new Secret(this, 'SignInCodeSecret', {
      description: 'Keys the stored HMAC of one-time sign-in codes',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(codeKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'An HMAC key the sign-in function alone reads; rotating it only invalidates the sign-in codes of the ten minutes before. Operators rotate it by hand if it leaks.',
    });
    codeKey.grantRead(signInFunction.function);
    signInFunction.function.addEnvironment('SIGN_IN_CODE_SECRET_ARN', codeKey.secretArn);
    const domain = from.slice(from.lastIndexOf('@') + 1);
    const { region, account } = Stack.of(this);
    signInFunction.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          `arn:aws:ses:${region}:${account}:identity/${from}`,
          `arn:aws:ses:${region}:${account}:identity/${domain}`,
        ],
      }),
    );
  }

  /** Lets `fn` invoke the plan-computation function by name (PLAN_COMPUTATION_FUNCTION). */
  private allowPlanComputation(fn: ServiceFunction): void {
    fn.function.addEnvironment('PLAN_COMPUTATION_FUNCTION', this.planComputation.function.functionName);
    // The unqualified function only (invoked by name, $LATEST), so no `:*` for versions and
    // aliases as `grantInvoke` would add.
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [this.planComputation.function.functionArn],
      }),
    );
  }
}
