import { Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKey,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  type IAuthorizer,
  type Integration,
  LogGroupLogDestination,
  MockIntegration,
  PassthroughBehavior,
  type Resource,
  RestApi,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { oauthClientsUsageIdentifier } from '../../shared/auth/api-keys';
import type { HttpMethod } from '../../shared/contract/operation-contract';
import type { Route } from '../../shared/contract/operations';
import type { TenantThrottle } from '../../shared/http/tenant-rate-limit';
import { addErrorResponses, errorBodyTemplate, requestIdHeader, requestIdSource } from './error-responses';

export interface ServiceRestApiProps {
  readonly restApiName: string;
  readonly description: string;
  /** @default 'prod' */
  readonly stageName?: string;
  /** Steady-state requests per second across the whole stage. @default 50 */
  readonly throttlingRateLimit?: number;
  /** Requests the stage absorbs at once above the steady rate. @default 100 */
  readonly throttlingBurstLimit?: number;
  /** Each tenant's own rate and burst: the throttle of the tenants' usage plan. */
  readonly tenantThrottle: TenantThrottle;
  /** X-Ray tracing of the stage. @default false */
  readonly tracing?: boolean;
  /** @default RetentionDays.ONE_MONTH */
  readonly accessLogRetention?: RetentionDays;
  /** ARN of a regional WAFv2 web ACL to associate with the stage. @default - no web ACL */
  readonly webAclArn?: string;
  /**
   * The API's base URL as clients call it, without a trailing slash: the OAuth issuer. A custom
   * domain mapped without a base path (docs/deploy.md), since the OAuth metadata must be at the
   * host's root. @default - the stage's execute-api URL
   */
  readonly baseUrl?: string;
}

/**
 * The service's REST API: one regional stage with JSON access logs and stage-wide throttling,
 * per-tenant throttling through a usage plan, the service's error body on every response API
 * Gateway answers itself, and the routes of the manifest (`serveRoutes`).
 */
export class ServiceRestApi extends Construct {
  readonly restApi: RestApi;
  readonly accessLogGroup: LogGroup;
  /**
   * The tenants' usage plan: its throttle applies to each of its API keys on its own. The
   * authorizer names the caller's key (`usageIdentifierKey`); the admin CLI adds a key per API key
   * of ours (docs/deploy.md).
   */
  readonly tenantUsagePlan: UsagePlan;
  /** Its name, a plain string: the admin CLI's operator finds the plan by it (docs/deploy.md). */
  readonly tenantUsagePlanName: string;
  /**
   * The OAuth clients' usage plan: the one API Gateway key every Bearer request names
   * (`oauthClientsUsageIdentifier`), created here, so that no client registration creates a key.
   * No per-key throttle of its own (the stage's applies): the functions throttle Bearer requests
   * per OAuth client and org (docs/http.md, "Throttling").
   */
  readonly oauthClientsUsagePlan: UsagePlan;
  /** The API's base URL without a trailing slash: the OAuth issuer and the tokens' audience. */
  readonly baseUrl: string;

  constructor(scope: Construct, id: string, props: ServiceRestApiProps) {
    super(scope, id);

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? RetentionDays.ONE_MONTH,
    });

    this.restApi = new RestApi(this, 'Api', {
      restApiName: props.restApiName,
      description: props.description,
      // Callers are programs, mostly in AWS regions; an edge-optimized endpoint would add a
      // CloudFront hop the operator cannot configure. A custom domain or CDN can front this one.
      endpointTypes: [EndpointType.REGIONAL],
      // The API Gateway CloudWatch role is an account-wide singleton (AWS::ApiGateway::Account);
      // this app does not own it (see cdk.json), and the access log needs no role.
      cloudWatchRole: false,
      // Usage plans pick the caller's API Gateway key from the authorizer's usageIdentifierKey,
      // never from a request header: callers send our own keys, which API Gateway does not know.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      deployOptions: {
        stageName: props.stageName ?? 'prod',
        accessLogDestination: new LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: accessLogFormat(),
        throttlingRateLimit: props.throttlingRateLimit ?? 50,
        throttlingBurstLimit: props.throttlingBurstLimit ?? 100,
        tracingEnabled: props.tracing ?? false,
      },
    });
    // Built from the API's id, not from `restApi.url` (the stage): functions read it, and the
    // stage depends on the functions through its methods.
    const stageName = props.stageName ?? 'prod';
    this.baseUrl =
      props.baseUrl ??
      `https://${this.restApi.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/${stageName}`;
    addErrorResponses(this.restApi, this.baseUrl);

    this.tenantUsagePlanName = `${props.restApiName}-tenants`;
    this.tenantUsagePlan = this.restApi.addUsagePlan('TenantUsagePlan', {
      name: this.tenantUsagePlanName,
      description: 'Each API key of the service (its API Gateway key) gets this rate and burst on its own',
      throttle: {
        rateLimit: props.tenantThrottle.rateLimit,
        burstLimit: props.tenantThrottle.burstLimit,
      },
      apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
    });
    this.oauthClientsUsagePlan = this.restApi.addUsagePlan('OAuthClientsUsagePlan', {
      name: `${props.restApiName}-oauth-clients`,
      description:
        'The one key all OAuth clients’ Bearer requests share; the service throttles them per client and org',
      apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
    });
    // Its value is the usage identifier the authorizer answers for every Bearer token: no
    // credential (the key source is AUTHORIZER), so a fixed, public value.
    const oauthClientsKey = new ApiKey(this, 'OAuthClientsKey', {
      apiKeyName: oauthClientsUsageIdentifier,
      value: oauthClientsUsageIdentifier,
      description: 'Usage identifier of every Bearer request (not a credential)',
      enabled: true,
    });
    this.oauthClientsUsagePlan.addApiKey(oauthClientsKey);

    const stage = this.restApi.deploymentStage;
    if (props.webAclArn) {
      new CfnWebACLAssociation(this, 'WebAcl', { resourceArn: stage.stageArn, webAclArn: props.webAclArn });
    } else {
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'No web ACL by default: every non-public route needs a revocable API key or JWT checked by the authorizer, the stage is throttled, and the functions validate every body strictly. A WAFv2 web ACL is an account-level cost and policy decision; pass webAclArn to attach one.',
      });
    }
    Validations.of(stage).acknowledge({
      id: 'AwsSolutions-APIG6',
      reason:
        'Execution logging needs the account-wide API Gateway CloudWatch role, which this app deliberately does not own. Every request is recorded in the JSON access log (status, latencies, authorizer and integration errors) and in the functions’ own logs.',
    });
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated by the functions with strict schemas, answering 422 with each field named (docs/http.md); an API Gateway validator would answer 400 in another shape first.',
    });
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-COG4',
      reason:
        'Callers authenticate with the service’s own API keys and OAuth JWTs, checked by the Lambda REQUEST authorizer; there is no Cognito user pool.',
    });
  }

  /**
   * Serves every route with the integration `integrationFor` gives it, guarded by `authorizer`
   * and the tenants' usage plan (API key required: the authorizer's usage identifier) unless the
   * route is public; other methods on a served path are answered 405 (docs/http.md).
   */
  serveRoutes(
    routes: readonly Route[],
    integrationFor: (route: Route) => Integration,
    authorizer: IAuthorizer,
  ): void {
    const routesByPath = new Map<string, Route[]>();
    for (const route of routes)
      routesByPath.set(route.path, [...(routesByPath.get(route.path) ?? []), route]);
    for (const [path, pathRoutes] of routesByPath) {
      const resource = this.restApi.root.resourceForPath(path);
      for (const route of pathRoutes) {
        const method = resource.addMethod(route.method, integrationFor(route), {
          operationName: route.operationId,
          ...(route.withoutAuthorizer
            ? { authorizationType: AuthorizationType.NONE }
            : { authorizationType: AuthorizationType.CUSTOM, authorizer, apiKeyRequired: true }),
        });
        if (route.withoutAuthorizer) {
          Validations.of(method).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason: `${route.method} ${route.path} runs without the authorizer by design (operation list): it serves callers before they hold credentials.`,
          });
        }
      }
      answerMethodNotAllowed(
        resource,
        pathRoutes.map((route) => route.method),
      );
    }
  }
}

/**
 * One JSON object per request: what an operator needs to trace a call and its failures. Values
 * are quoted (an absent one renders as `-`), except the error message, whose
 * `$context.error.messageString` form API Gateway renders quoted itself.
 */
function accessLogFormat(): AccessLogFormat {
  const quoted = (value: string) => `"${value}"`;
  const fields: Record<string, string> = {
    requestId: quoted(AccessLogField.contextRequestId()),
    extendedRequestId: quoted(AccessLogField.contextExtendedRequestId()),
    requestTimeEpoch: quoted(AccessLogField.contextRequestTimeEpoch()),
    ip: quoted(AccessLogField.contextIdentitySourceIp()),
    userAgent: quoted(AccessLogField.contextIdentityUserAgent()),
    httpMethod: quoted(AccessLogField.contextHttpMethod()),
    resourcePath: quoted(AccessLogField.contextResourcePath()),
    path: quoted(AccessLogField.contextPath()),
    protocol: quoted(AccessLogField.contextProtocol()),
    status: quoted(AccessLogField.contextStatus()),
    responseLength: quoted(AccessLogField.contextResponseLength()),
    responseLatency: quoted(AccessLogField.contextResponseLatency()),
    errorResponseType: quoted(AccessLogField.contextErrorResponseType()),
    errorMessage: AccessLogField.contextErrorMessageString(),
    authorizerStatus: quoted(AccessLogField.contextAuthorizerStatus()),
    authorizerLatency: quoted(AccessLogField.contextAuthorizerLatency()),
    authorizerError: quoted(AccessLogField.contextAuthorizerError()),
    integrationStatus: quoted(AccessLogField.contextIntegrationStatus()),
    integrationLatency: quoted(AccessLogField.contextIntegrationLatency()),
    integrationError: quoted(AccessLogField.contextIntegrationErrorMessage()),
    xrayTraceId: quoted(AccessLogField.contextXrayTraceId()),
  };
  const members = Object.entries(fields).map(([name, value]) => `"${name}":${value}`);
  return AccessLogFormat.custom(`{${members.join(',')}}`);
}

/**
 * API Gateway answers a method a resource does not define like an unknown path; an ANY method
 * (explicit methods take precedence over it) answers 405 with the methods the path serves, from a
 * mock integration: no function runs and no credentials are needed to learn the allowed methods,
 * which the public OpenAPI document lists anyway.
 */
function answerMethodNotAllowed(resource: Resource, served: readonly HttpMethod[]): void {
  const allow = served.join(', ');
  const method = resource.addMethod(
    'ANY',
    new MockIntegration({
      // The mock needs its request mapped to `{"statusCode": ...}`; a body of another type is
      // answered 415 (UNSUPPORTED_MEDIA_TYPE, in the service's error body) instead of reaching it.
      requestTemplates: {
        'application/json': '{"statusCode": 405}',
        'application/x-www-form-urlencoded': '{"statusCode": 405}',
      },
      passthroughBehavior: PassthroughBehavior.NEVER,
      integrationResponses: [
        {
          statusCode: '405',
          responseParameters: {
            [`method.response.header.${requestIdHeader}`]: requestIdSource,
            'method.response.header.Allow': `'${allow}'`,
          },
          responseTemplates: {
            'application/json': errorBodyTemplate(
              405,
              JSON.stringify(`Method not allowed; this path serves ${allow}`),
            ),
          },
        },
      ],
    }),
    {
      authorizationType: AuthorizationType.NONE,
      methodResponses: [
        {
          statusCode: '405',
          responseParameters: {
            [`method.response.header.${requestIdHeader}`]: true,
            'method.response.header.Allow': true,
          },
        },
      ],
    },
  );
  Validations.of(method).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason:
      'Answers 405 for methods the path does not serve, from a mock integration: no function or data is reached.',
  });
}
