import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { synthesizeService } from './service-app';

interface Statement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

const azureClientSecretArn = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:azure-app-AbCdEf';

describe('the onboarding function', () => {
  const { api, stacks } = synthesizeService(undefined, {
    context: {
      azureClientId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      azureClientSecretArn,
      onboardingTemplateUrl: 'https://bucket.s3.amazonaws.com/role.json',
    },
  });
  const onboarding = stacks.api.groupFunctions.get('onboarding') as ServiceFunction;
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stacks.api.getLogicalId(construct.node.defaultChild as CfnResource);
  const properties = api.findResources('AWS::Lambda::Function')[logicalId(onboarding.function)]?.Properties;
  const statements: Statement[] = Object.values(
    api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: logicalId(onboarding.role) }] } }),
  ).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  const [secretId] = Object.keys(api.findResources('AWS::SecretsManager::Secret'));

  it('knows the service account, the consent secret, the stage and the context settings', () => {
    // Assess
    expect(properties.Environment.Variables).toMatchObject({
      SERVICE_AWS_ACCOUNT_ID: { Ref: 'AWS::AccountId' },
      CONSENT_STATE_SECRET_ARN: { Ref: secretId },
      API_STAGE: 'prod',
      AZURE_CLIENT_ID: '0f8fad5b-d9cb-469f-a165-70867728950e',
      AWS_TEMPLATE_URL: 'https://bucket.s3.amazonaws.com/role.json',
      AZURE_CLIENT_SECRET_ARN: azureClientSecretArn,
    });
    expect(properties.Timeout).toBe(28);
  });

  it("reads the Azure app's client secret the operator stored", () => {
    // Assess
    const reading = statements.filter((statement) =>
      [statement.Action].flat().includes('secretsmanager:GetSecretValue'),
    );
    expect(reading.flatMap((statement) => [statement.Resource].flat())).toContainEqual(azureClientSecretArn);
  });

  it('generates the consent secret, and only this function reads it', () => {
    // Assess
    api.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 48, ExcludePunctuation: true },
    });
    const readers = Object.values(api.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes('secretsmanager:GetSecretValue'),
    );
    expect(readers.map((policy) => policy.Properties.Roles)).toEqual([[{ Ref: logicalId(onboarding.role) }]]);
  });

  it('may assume the onboarding role, by name, in any account, and nothing else outside the table and secret', () => {
    // Assess
    const assuming = statements.filter((statement) => [statement.Action].flat().includes('sts:AssumeRole'));
    expect(assuming).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Resource: 'arn:aws:iam::*:role/commitment-planning-purchaser',
      },
    ]);
    const services = new Set(
      statements.flatMap((statement) => [statement.Action].flat().map((action) => action.split(':')[0])),
    );
    expect(services).toEqual(new Set(['dynamodb', 'secretsmanager', 'sts', 'logs']));
  });
});
