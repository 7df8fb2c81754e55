import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../lib/app';
import { defaultTenantThrottle } from '../../shared/http/tenant-rate-limit';
import { routes } from '../support/served-routes';
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

  it('gives each API key of the usage plan the shared default rate and burst, on the stage', () => {
    // Assess
    expect(defaultTenantThrottle).toEqual({ rateLimit: 10, burstLimit: 20 });
    api.resourceCountIs('AWS::ApiGateway::UsagePlan', 1);
    api.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 10, BurstLimit: 20 },
      Quota: Match.absent(),
      ApiStages: [{ ApiId: { Ref: restApiId }, Stage: { Ref: stageId } }],
    });
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

  it('puts no API key in the template: keys are added per API key by the admin CLI', () => {
    api.resourceCountIs('AWS::ApiGateway::ApiKey', 0);
    api.resourceCountIs('AWS::ApiGateway::UsagePlanKey', 0);
  });

  it('outputs the usage plan id for the admin CLI', () => {
    const [planId] = Object.keys(api.findResources('AWS::ApiGateway::UsagePlan'));
    api.hasOutput('TenantUsagePlanId', { Value: { Ref: planId } });
  });

  it.each(['THROTTLED', 'QUOTA_EXCEEDED'])('answers %s with 429 in the error body', (type) => {
    api.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: type,
      StatusCode: '429',
      ResponseTemplates: {
        'application/json':
          '{"code":429,"status":"Too Many Requests","message":"Too many requests","errors":{}}',
      },
    });
  });

  it('refuses a tenant throttle API Gateway would not take, naming it', () => {
    // Act
    const build = () =>
      buildApp(appWithoutBundling(), { api: { tenantThrottle: { rateLimit: 10, burstLimit: 0 } } });

    // Assess
    expect(build).toThrow(/tenantThrottle: the burst limit must be a whole number/);
  });
});
