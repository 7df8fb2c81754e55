import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { synthesizeService } from './service-app';

interface PolicyStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

describe("OAuth clients' throttling (docs/http.md, Throttling)", () => {
  const { api, stacks } = synthesizeService();
  const apiGatewayStatementsOf = (serviceFunction: ServiceFunction): PolicyStatement[] => {
    const roleId = stacks.api.getLogicalId(serviceFunction.role.node.defaultChild as CfnFunction);
    const policies = api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    return Object.values(policies)
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[])
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('apigateway:')));
  };

  it('lets no function create API Gateway keys: a flood of registrations cannot use up the key quota', () => {
    // Prepare
    const registration = stacks.api.groupFunctions.get('oauth-registration') as ServiceFunction;
    const functionId = stacks.api.getLogicalId(registration.function.node.defaultChild as CfnFunction);

    // Assess: the registration function, which once added a key per client, holds no API Gateway
    // permission and no usage plan's name; nor does any other function.
    expect(
      api.findResources('AWS::Lambda::Function')[functionId]?.Properties.Environment.Variables
        .USAGE_PLAN_NAME,
    ).toBeUndefined();
    for (const [group, groupFunction] of stacks.api.groupFunctions) {
      expect(apiGatewayStatementsOf(groupFunction), group).toEqual([]);
    }
    expect(apiGatewayStatementsOf(stacks.api.authorizerFunction)).toEqual([]);
  });
});
