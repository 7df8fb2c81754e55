import type { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { functionGroups, routes } from '../../shared/contract/operations';
import { synthesizeService } from './service-app';

interface CfnMethod {
  readonly Properties: {
    readonly HttpMethod: string;
    readonly ResourceId: { Ref: string } | { 'Fn::GetAtt': [string, 'RootResourceId'] };
    readonly AuthorizationType: string;
    readonly AuthorizerId?: { Ref: string };
    readonly OperationName?: string;
    readonly Integration: {
      readonly Type: string;
      readonly Uri?: unknown;
      readonly PassthroughBehavior?: string;
      readonly RequestTemplates?: Record<string, string>;
      readonly IntegrationResponses?: {
        readonly StatusCode: string;
        readonly ResponseParameters?: Record<string, string>;
        readonly ResponseTemplates?: Record<string, string>;
      }[];
    };
  };
}

interface CfnApiResource {
  readonly Properties: { readonly PathPart: string; readonly ParentId: { Ref: string } | object };
}

/** Every method of the API keyed `METHOD /path`, the path rebuilt from the resource tree. */
function methodsByRoute(template: Template): Map<string, CfnMethod> {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, CfnApiResource>;
  const pathOf = (resourceId: CfnMethod['Properties']['ResourceId']): string => {
    if (!('Ref' in resourceId)) return '/';
    const resource = resources[resourceId.Ref];
    if (!resource) throw new Error(`No resource ${resourceId.Ref}`);
    const { ParentId, PathPart } = resource.Properties;
    const parentPath = 'Ref' in ParentId ? pathOf(ParentId as { Ref: string }) : '';
    return `${parentPath === '/' ? '' : parentPath}/${PathPart}`;
  };
  const methods = template.findResources('AWS::ApiGateway::Method') as Record<string, CfnMethod>;
  return new Map(
    Object.values(methods).map((method) => [
      `${method.Properties.HttpMethod} ${pathOf(method.Properties.ResourceId)}`,
      method,
    ]),
  );
}

describe('API routes', () => {
  const { api, stacks } = synthesizeService();
  const methods = methodsByRoute(api);
  const authorizerId = Object.keys(api.findResources('AWS::ApiGateway::Authorizer'))[0];
  const functionLogicalId = (group: (typeof functionGroups)[number]) => {
    const groupFunction = stacks.api.groupFunctions.get(group);
    if (!groupFunction) throw new Error(`No function for ${group}`);
    return stacks.api.getLogicalId(groupFunction.function.node.defaultChild as CfnFunction);
  };

  it('serves every route of the manifest with its method and operation id', () => {
    for (const route of routes) {
      // Act
      const method = methods.get(`${route.method} ${route.path}`);

      // Assess
      expect(method, `${route.method} ${route.path}`).toBeDefined();
      expect(method?.Properties.OperationName).toBe(route.operationId);
    }
  });

  it('guards every non-public route with the request authorizer and leaves public ones open', () => {
    for (const route of routes) {
      const method = methods.get(`${route.method} ${route.path}`);

      if (route.withoutAuthorizer) {
        expect(method?.Properties.AuthorizationType, route.path).toBe('NONE');
        expect(method?.Properties.AuthorizerId).toBeUndefined();
      } else {
        expect(method?.Properties.AuthorizationType, route.path).toBe('CUSTOM');
        expect(method?.Properties.AuthorizerId).toEqual({ Ref: authorizerId });
      }
    }
  });

  it('proxies each route to the function of its group', () => {
    for (const route of routes) {
      const integration = methods.get(`${route.method} ${route.path}`)?.Properties.Integration;

      expect(integration?.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(integration?.Uri)).toContain(`"${functionLogicalId(route.group)}"`);
    }
  });

  it('deploys one function per function group plus the authorizer, the plan computation, the purchase pipeline’s two, the usage sync’s two and the catalog refresh', () => {
    // Assess
    api.resourceCountIs('AWS::Lambda::Function', functionGroups.length + 7);
    expect([...stacks.api.groupFunctions.keys()]).toEqual([...functionGroups]);
  });

  it('answers 405 with the served methods for any other method on a served path', () => {
    for (const path of new Set(routes.map((route) => route.path))) {
      // Prepare
      const served = routes.filter((route) => route.path === path).map((route) => route.method);

      // Act
      const fallback = methods.get(`ANY ${path}`);

      // Assess
      expect(fallback?.Properties.AuthorizationType, path).toBe('NONE');
      expect(fallback?.Properties.Integration).toMatchObject({
        Type: 'MOCK',
        PassthroughBehavior: 'NEVER',
        RequestTemplates: {
          'application/json': '{"statusCode": 405}',
          'application/x-www-form-urlencoded': '{"statusCode": 405}',
        },
      });
      const [response] = fallback?.Properties.Integration.IntegrationResponses ?? [];
      expect(response?.StatusCode).toBe('405');
      expect(response?.ResponseParameters).toEqual({
        'method.response.header.x-request-id': 'context.requestId',
        'method.response.header.Allow': `'${served.join(', ')}'`,
      });
      expect(JSON.parse(response?.ResponseTemplates?.['application/json'] ?? '')).toEqual({
        code: 405,
        status: 'Method Not Allowed',
        message: `Method not allowed; this path serves ${served.join(', ')}`,
        errors: {},
      });
    }
  });

  it('serves nothing but the manifest routes and their 405 answers', () => {
    // Prepare
    const paths = new Set(routes.map((route) => route.path));
    const expected = [
      ...routes.map((route) => `${route.method} ${route.path}`),
      ...[...paths].map((path) => `ANY ${path}`),
    ];

    // Assess
    expect([...methods.keys()].sort()).toEqual(expected.sort());
  });
});
