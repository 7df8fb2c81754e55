import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { gatewayErrors } from '../../lib/constructs/error-responses';
import { synthesizeService } from './service-app';

interface CfnGatewayResponse {
  readonly Properties: {
    readonly ResponseType: string;
    readonly StatusCode?: string;
    readonly ResponseParameters: Record<string, string>;
    readonly ResponseTemplates: Record<string, string>;
  };
}

/** Renders what API Gateway substitutes in gateway-response and access-log templates. */
function renderTemplate(template: string): unknown {
  return JSON.parse(template.replaceAll('$context.error.messageString', '"Rendered message"'));
}

describe('REST API', () => {
  const { api } = synthesizeService();
  const gatewayResponses = new Map(
    Object.values(
      api.findResources('AWS::ApiGateway::GatewayResponse') as Record<string, CfnGatewayResponse>,
    ).map((response) => [response.Properties.ResponseType, response.Properties]),
  );

  it('is a regional API without an account-wide CloudWatch role', () => {
    api.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
      BinaryMediaTypes: Match.absent(),
    });
    api.resourceCountIs('AWS::ApiGateway::Account', 0);
    api.resourceCountIs('AWS::ApiGateway::RequestValidator', 0);
  });

  it('deploys the prod stage throttled at 50 requests per second with bursts of 100', () => {
    api.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: 50,
          ThrottlingBurstLimit: 100,
        }),
      ],
      TracingEnabled: false,
    });
  });

  it('writes one JSON access-log line per request to its own log group', () => {
    // Prepare
    const [logGroupId] = Object.keys(
      api.findResources('AWS::Logs::LogGroup', { Properties: { RetentionInDays: 30 } }),
    ).filter((id) => id.startsWith('RestApiAccessLogs'));
    const [stage] = Object.values(api.findResources('AWS::ApiGateway::Stage'));

    // Act
    const { DestinationArn, Format } = stage?.Properties.AccessLogSetting ?? {};
    const entry = renderTemplate(Format) as Record<string, string>;

    // Assess
    // The log group's ARN without the `:*` suffix its `Arn` attribute carries (the recommended
    // feature flag in cdk.json): the form API Gateway documents for a destination.
    expect(DestinationArn).toEqual({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':logs:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':log-group:',
          { Ref: logGroupId },
        ],
      ],
    });
    expect(entry).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      httpMethod: '$context.httpMethod',
      resourcePath: '$context.resourcePath',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
      errorMessage: 'Rendered message',
      authorizerError: '$context.authorizer.error',
      integrationError: '$context.integrationErrorMessage',
    });
  });

  it('calls the authorizer on every request, uncached and with no identity source required', () => {
    api.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: '',
      AuthorizerResultTtlInSeconds: 0,
    });
  });

  it('answers unknown routes 404 in the service’s error body', () => {
    // Act
    const response = gatewayResponses.get('MISSING_AUTHENTICATION_TOKEN');

    // Assess
    expect(response?.StatusCode).toBe('404');
    expect(renderTemplate(response?.ResponseTemplates['application/json'] ?? '')).toEqual({
      code: 404,
      status: 'Not Found',
      message: 'Unknown route',
      errors: {},
    });
  });

  it.each([
    ['UNAUTHORIZED', 401],
    ['ACCESS_DENIED', 403],
    ['THROTTLED', 429],
    ['REQUEST_TOO_LARGE', 413],
  ])('answers %s with status %i', (type, status) => {
    const response = gatewayResponses.get(type);

    expect(response?.StatusCode).toBe(String(status));
    expect(renderTemplate(response?.ResponseTemplates['application/json'] ?? '')).toMatchObject({
      code: status,
    });
  });

  it('gives every gateway response the error body, its code equal to the status, and the request id', () => {
    // Assess
    expect([...gatewayResponses.keys()].sort()).toEqual(
      [...gatewayErrors.map((error) => error.type.responseType), 'DEFAULT_4XX', 'DEFAULT_5XX'].sort(),
    );
    for (const [type, response] of gatewayResponses) {
      const body = renderTemplate(response.ResponseTemplates['application/json'] ?? '') as Record<
        string,
        unknown
      >;
      expect(Object.keys(body), type).toEqual(['code', 'status', 'message', 'errors']);
      expect(body.errors).toEqual({});
      if (response.StatusCode) expect(body.code, type).toBe(Number(response.StatusCode));
      expect(response.ResponseParameters, type).toMatchObject({
        'gatewayresponse.header.x-request-id': 'context.requestId',
      });
      // Besides the request id: the Bearer challenge on 401, Retry-After on 429.
      expect(Object.keys(response.ResponseParameters), type).toHaveLength(
        response.StatusCode === '401' || response.StatusCode === '429' ? 2 : 1,
      );
    }
  });

  it('answers every 401 with the Bearer challenge naming the protected-resource metadata under the base URL', () => {
    // Act
    const challenge = gatewayResponses.get('UNAUTHORIZED')?.ResponseParameters[
      'gatewayresponse.header.www-authenticate'
    ] as unknown;

    // Assess
    expect(JSON.stringify(challenge)).toMatch(/Bearer resource_metadata=\\"https:\/\/.*execute-api/);
    expect(JSON.stringify(challenge)).toMatch(/\/prod\/\.well-known\/oauth-protected-resource\\"'/);
  });

  it('leaves the status of the 4XX and 5XX fallbacks alone, so specific statuses are kept', () => {
    expect(gatewayResponses.get('DEFAULT_4XX')?.StatusCode).toBeUndefined();
    expect(gatewayResponses.get('DEFAULT_5XX')?.StatusCode).toBeUndefined();
    expect(
      renderTemplate(gatewayResponses.get('DEFAULT_5XX')?.ResponseTemplates['application/json'] ?? ''),
    ).toEqual({
      code: 500,
      status: 'Internal Server Error',
      message: 'Rendered message',
      errors: {},
    });
  });

  it('attaches no web ACL unless one is given', () => {
    api.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
  });

  it('outputs the API URL', () => {
    // Act
    const outputs = api.findOutputs('ApiUrl');

    // Assess
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain('.execute-api.');
  });
});
