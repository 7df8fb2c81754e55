import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { synthesizeService } from './service-app';

interface PolicyStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

describe("OAuth clients' throttle buckets", () => {
  const { api, stacks } = synthesizeService();
  const apiGatewayStatementsOf = (serviceFunction: ServiceFunction): PolicyStatement[] => {
    const roleId = stacks.api.getLogicalId(serviceFunction.role.node.defaultChild as CfnFunction);
    const policies = api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    return Object.values(policies)
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[])
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('apigateway:')));
  };

  it('lets only the registration function add keys, to the tenants usage plan it finds by name', () => {
    // Prepare
    const registration = stacks.api.groupFunctions.get('oauth-registration') as ServiceFunction;
    const functionId = stacks.api.getLogicalId(registration.function.node.defaultChild as CfnFunction);
    const planId = stacks.api.getLogicalId(stacks.api.api.tenantUsagePlan.node.defaultChild as CfnFunction);

    // Assess
    const statements = apiGatewayStatementsOf(registration);
    expect(statements.map((statement) => statement.Action)).toEqual(['apigateway:GET', 'apigateway:POST']);
    const resources = JSON.stringify(statements.map((statement) => statement.Resource));
    expect(resources).toContain('::/apikeys');
    expect(resources).toContain('::/usageplans');
    expect(resources).toContain(planId);
    expect(
      api.findResources('AWS::Lambda::Function')[functionId]?.Properties.Environment.Variables
        .USAGE_PLAN_NAME,
    ).toBe(stacks.api.api.tenantUsagePlanName);
    for (const [group, groupFunction] of stacks.api.groupFunctions) {
      if (group !== 'oauth-registration') expect(apiGatewayStatementsOf(groupFunction), group).toEqual([]);
    }
    expect(apiGatewayStatementsOf(stacks.api.authorizerFunction)).toEqual([]);
  });
});
