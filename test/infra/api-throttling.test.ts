import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../lib/app';
import { oauthClientsUsageIdentifier } from '../../shared/auth/api-keys';
import { routes } from '../../shared/contract/operations';
import { defaultTenantThrottle } from '../../shared/http/tenant-rate-limit';
import { appWithoutBundling, synthesizeService } from './service-app';

interface CfnMethod {
  readonly Properties: {
    readonly HttpMethod: string;
    readonly AuthorizationType: string;
    readonly ApiKeyRequired?: boolean;
    readonly OperationName?: string;
  };
}

describe('per-tenant throttling', () => {
  const { api } = synthesizeService();
  const methods = Object.values(api.findResources('AWS::ApiGateway::Method') as Record<string, CfnMethod>);
  const [restApiId] = Object.keys(api.findResources('AWS::ApiGateway::RestApi'));
  const [stageId] = Object.keys(api.findResources('AWS::ApiGateway::Stage'));

  it("takes the caller's API Gateway key from the authorizer, never from a request header", () => {
    api.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
  });

  it('gives each API key of the tenants usage plan the shared default rate and burst, on the stage', () => {
    // Assess
    expect(defaultTenantThrottle).toEqual({ rateLimit: 10, burstLimit: 20 });
    api.resourceCountIs('AWS::ApiGateway::UsagePlan', 2);
    api.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      UsagePlanName: 'commitment-planning-tenants',
      Throttle: { RateLimit: 10, BurstLimit: 20 },
      Quota: Match.absent(),
      ApiStages: [{ ApiId: { Ref: restApiId }, Stage: { Ref: stageId } }],
    });
  });

  it('gives all OAuth clients one shared key, in a plan of its own without a per-key throttle', () => {
    // Prepare
    const plans = api.findResources('AWS::ApiGateway::UsagePlan', {
      Properties: { UsagePlanName: 'commitment-planning-oauth-clients' },
    });
    const [planId] = Object.keys(plans);
    const [keyId] = Object.keys(api.findResources('AWS::ApiGateway::ApiKey'));

    // Assess: the key's value is what the authorizer answers for every Bearer token, and the
    // stage's limit is the plan's only one (the functions throttle per client and org).
    expect(Object.values(plans)[0]?.Properties).toMatchObject({
      ApiStages: [{ ApiId: { Ref: restApiId }, Stage: { Ref: stageId } }],
    });
    expect(Object.values(plans)[0]?.Properties.Throttle).toBeUndefined();
    api.resourceCountIs('AWS::ApiGateway::ApiKey', 1);
    api.hasResourceProperties('AWS::ApiGateway::ApiKey', {
      Name: oauthClientsUsageIdentifier,
      Value: oauthClientsUsageIdentifier,
      Enabled: true,
    });
    api.resourceCountIs('AWS::ApiGateway::UsagePlanKey', 1);
    api.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', {
      KeyId: { Ref: keyId },
      KeyType: 'API_KEY',
      UsagePlanId: { Ref: planId },
    });
  });

  it('gives the functions the tenants limits for the Bearer requests they throttle themselves', () => {
    // Assess: every function with the table (all but the JWKS one) reads the same limits.
    const functions = Object.values(api.findResources('AWS::Lambda::Function'));
    const withLimits = functions.filter(
      (fn) => fn.Properties.Environment?.Variables?.TENANT_RATE_LIMIT !== undefined,
    );
    expect(withLimits.length).toBeGreaterThan(10);
    for (const fn of withLimits) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        TENANT_RATE_LIMIT: '10',
        TENANT_BURST_LIMIT: '20',
      });
    }
  });

  it('requires an API key (the usage identifier) on every authorized method and on no other', () => {
    // Prepare
    const authorizedOperations = routes
      .filter((route) => !route.withoutAuthorizer)
      .map((route) => route.operationId);

    // Act
    const custom = methods.filter((method) => method.Properties.AuthorizationType === 'CUSTOM');
    const others = methods.filter((method) => method.Properties.AuthorizationType !== 'CUSTOM');

    // Assess
    expect(custom.map((method) => method.Properties.OperationName).sort()).toEqual(
      authorizedOperations.sort(),
    );
    expect(custom.every((method) => method.Properties.ApiKeyRequired === true)).toBe(true);
    expect(others.length).toBeGreaterThan(0);
    expect(others.some((method) => method.Properties.ApiKeyRequired === true)).toBe(false);
  });

  it('outputs the tenants usage plan id for the admin CLI', () => {
    const [planId] = Object.keys(
      api.findResources('AWS::ApiGateway::UsagePlan', {
        Properties: { UsagePlanName: 'commitment-planning-tenants' },
      }),
    );
    api.hasOutput('TenantUsagePlanId', { Value: { Ref: planId } });
  });

  it.each(['THROTTLED', 'QUOTA_EXCEEDED'])(
    'answers %s with 429 in the error body and Retry-After',
    (type) => {
      api.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '429',
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.retry-after': "'1'" }),
        ResponseTemplates: {
          'application/json':
            '{"code":429,"status":"Too Many Requests","message":"Too many requests","errors":{}}',
        },
      });
    },
  );

  it('refuses a tenant throttle API Gateway would not take, naming it', () => {
    // Act
    const build = () =>
      buildApp(appWithoutBundling(), { api: { tenantThrottle: { rateLimit: 10, burstLimit: 0 } } });

    // Assess
    expect(build).toThrow(/tenantThrottle: the burst limit must be a whole number/);
  });
});
