import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { synthesizeService } from './service-app';

interface PolicyStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

describe('sign-in mail', () => {
  const { api, stacks } = synthesizeService(undefined, { context: { mailFrom: 'codes@acme.example' } });
  const sesStatementsOf = (serviceFunction: ServiceFunction): PolicyStatement[] => {
    const roleId = stacks.api.getLogicalId(serviceFunction.role.node.defaultChild as CfnFunction);
    const policies = api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    return Object.values(policies)
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[])
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:')));
  };

  it('lets only the sign-in function send, as the configured address or its domain', () => {
    // Prepare
    const signIn = stacks.api.groupFunctions.get('oauth-sign-in') as ServiceFunction;
    const others = [...stacks.api.groupFunctions].filter(([group]) => group !== 'oauth-sign-in');

    // Assess
    const [statement, ...more] = sesStatementsOf(signIn);
    expect(more).toEqual([]);
    expect(statement?.Action).toBe('ses:SendEmail');
    expect(JSON.stringify(statement?.Resource)).toContain(':identity/codes@acme.example');
    expect(JSON.stringify(statement?.Resource)).toContain(':identity/acme.example');
    for (const [group, groupFunction] of others) expect(sesStatementsOf(groupFunction), group).toEqual([]);
    expect(sesStatementsOf(stacks.api.authorizerFunction)).toEqual([]);
    const variablesOf = (serviceFunction: ServiceFunction) =>
      api.findResources('AWS::Lambda::Function')[
        stacks.api.getLogicalId(serviceFunction.function.node.defaultChild as CfnFunction)
      ]?.Properties.Environment.Variables;
    expect(variablesOf(signIn).MAIL_FROM).toBe('codes@acme.example');
    for (const [group, groupFunction] of others)
      expect(variablesOf(groupFunction), group).not.toHaveProperty('MAIL_FROM');
  });

  it('gives only the sign-in function the key its codes are stored under', () => {
    // Prepare
    const signIn = stacks.api.groupFunctions.get('oauth-sign-in') as ServiceFunction;
    const secrets = api.findResources('AWS::SecretsManager::Secret');
    const [secretId] = Object.keys(secrets).filter((id) => id.startsWith('SignInCodeSecret'));
    const variablesOf = (serviceFunction: ServiceFunction) =>
      api.findResources('AWS::Lambda::Function')[
        stacks.api.getLogicalId(serviceFunction.function.node.defaultChild as CfnFunction)
      ]?.Properties.Environment.Variables;
    const readers = Object.values(api.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes(`"Ref":"${secretId}"`),
    );

    // Assess
    expect(secretId).toBeDefined();
    expect(variablesOf(signIn).SIGN_IN_CODE_SECRET_ARN).toEqual({ Ref: secretId });
    expect(readers.map((policy) => policy.Properties.Roles)).toEqual([
      [{ Ref: stacks.api.getLogicalId(signIn.role.node.defaultChild as CfnFunction) }],
    ]);
    for (const [group, groupFunction] of stacks.api.groupFunctions) {
      if (group !== 'oauth-sign-in')
        expect(variablesOf(groupFunction), group).not.toHaveProperty('SIGN_IN_CODE_SECRET_ARN');
    }
  });

  it('refuses a mailFrom that is not an e-mail address', () => {
    expect(() => synthesizeService(undefined, { context: { mailFrom: 'nobody' } })).toThrow(
      'Context mailFrom must be an e-mail address; got nobody',
    );
  });
});
