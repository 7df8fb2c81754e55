import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { synthesizeService } from './service-app';

interface PolicyStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

describe('the OAuth signing keys', () => {
  const { api, stateful, stacks } = synthesizeService();
  const kmsActionsOf = (serviceFunction: ServiceFunction): string[] => {
    const roleId = stacks.api.getLogicalId(serviceFunction.role.node.defaultChild as CfnFunction);
    const policies = api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    return Object.values(policies)
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[])
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => action.startsWith('kms:'))
      .sort();
  };

  it('keeps an ECC_NIST_P256 signing key in the stateful stack, retained, named by the current and previous aliases', () => {
    // Assess
    stateful.resourceCountIs('AWS::KMS::Key', 1);
    stateful.hasResource('AWS::KMS::Key', {
      Properties: { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    stateful.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: 'alias/commitment-planning/oauth-signing',
    });
    stateful.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: 'alias/commitment-planning/oauth-signing-previous',
    });
  });

  it('lets the token function sign, the JWKS function read public keys, and no other function any KMS action', () => {
    // Prepare
    const jwks = stacks.api.groupFunctions.get('jwks') as ServiceFunction;
    const token = stacks.api.groupFunctions.get('oauth-token') as ServiceFunction;
    const others = [...stacks.api.groupFunctions].filter(
      ([group]) => group !== 'jwks' && group !== 'oauth-token',
    );

    // Assess
    expect(kmsActionsOf(token)).toEqual(['kms:GetPublicKey', 'kms:Sign']);
    expect(kmsActionsOf(jwks)).toEqual(['kms:GetPublicKey']);
    expect(kmsActionsOf(stacks.api.authorizerFunction)).toEqual([]);
    for (const [group, groupFunction] of others) expect(kmsActionsOf(groupFunction), group).toEqual([]);
  });

  it('gives the JWKS function no access to the table', () => {
    // Prepare
    const jwks = stacks.api.groupFunctions.get('jwks') as ServiceFunction;
    const roleId = stacks.api.getLogicalId(jwks.role.node.defaultChild as CfnFunction);
    const policies = api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });

    // Act
    const tableActions = Object.values(policies)
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[])
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => action.startsWith('dynamodb:'));

    // Assess
    expect(tableActions).toEqual([]);
  });

  it('publishes two generations after a rotation: the newest signs, the one before stays published', () => {
    // Act
    const rotated = synthesizeService({ signingKeyGenerations: ['1', '2'] });

    // Assess
    rotated.stateful.resourceCountIs('AWS::KMS::Key', 2);
    const keys = Object.keys(rotated.stateful.findResources('AWS::KMS::Key'));
    const aliases = Object.values(rotated.stateful.findResources('AWS::KMS::Alias')).map((alias) => [
      alias.Properties.AliasName,
      alias.Properties.TargetKeyId['Fn::GetAtt'][0],
    ]);
    expect(Object.fromEntries(aliases)).toEqual({
      'alias/commitment-planning/oauth-signing': keys.find((id) => id.includes('Key2')),
      'alias/commitment-planning/oauth-signing-previous': keys.find((id) => id.includes('Key1')),
    });
    // The JWKS function publishes both keys: tokens the previous one signed verify until they expire.
    const jwksRole = rotated.stacks.api.getLogicalId(
      (rotated.stacks.api.groupFunctions.get('jwks') as ServiceFunction).role.node
        .defaultChild as CfnFunction,
    );
    const grantedKeys = Object.values(
      rotated.api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: jwksRole }] } }),
    )
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[])
      .filter((statement) => [statement.Action].flat().includes('kms:GetPublicKey'))
      .flatMap((statement) => [statement.Resource].flat());
    expect(grantedKeys).toHaveLength(2);
  });
});
