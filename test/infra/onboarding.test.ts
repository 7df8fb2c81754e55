import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import type { FunctionGroup } from '../../shared/contract/operation-contract';
import { synthesizeService } from './service-app';

interface Statement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

const azureClientId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const azureClientSecretArn = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:azure-app-AbCdEf';

describe('the onboarding functions', () => {
  const { api, stacks } = synthesizeService(undefined, {
    context: {
      azureClientId,
      azureClientSecretArn,
      onboardingTemplateUrl: 'https://bucket.s3.amazonaws.com/role.json',
    },
  });
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stacks.api.getLogicalId(construct.node.defaultChild as CfnResource);
  const functionOf = (group: FunctionGroup) => stacks.api.groupFunctions.get(group) as ServiceFunction;
  const propertiesOf = (group: FunctionGroup) =>
    api.findResources('AWS::Lambda::Function')[logicalId(functionOf(group).function)]?.Properties;
  const statementsOf = (group: FunctionGroup): Statement[] =>
    Object.values(
      api.findResources('AWS::IAM::Policy', {
        Properties: { Roles: [{ Ref: logicalId(functionOf(group).role) }] },
      }),
    ).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  const servicesOf = (group: FunctionGroup) =>
    new Set(
      statementsOf(group).flatMap((statement) =>
        [statement.Action].flat().map((action) => action.split(':')[0]),
      ),
    );
  const secretsReadBy = (group: FunctionGroup) =>
    statementsOf(group)
      .filter((statement) => [statement.Action].flat().includes('secretsmanager:GetSecretValue'))
      .flatMap((statement) => [statement.Resource].flat());
  // The consent secret among the stack's secrets (the sign-in code secret is another).
  const consentSecretId = Object.keys(api.findResources('AWS::SecretsManager::Secret')).find((id) =>
    id.startsWith('OnboardingConsentStateSecret'),
  );
  const groups = [
    'onboarding',
    'onboarding-azure-consent',
    'onboarding-aws-verify',
    'onboarding-azure-verify',
  ] as const;

  it('are four: the routes without a cloud call, the consent callback, the AWS verification and the Azure verification', () => {
    // Assess
    for (const group of groups) expect(stacks.api.groupFunctions.has(group), group).toBe(true);
  });

  it("give the onboarding function the service account, the consent secret, the API's base URL and the context settings, but not the Azure app's secret, and the default timeout", () => {
    // Act
    const properties = propertiesOf('onboarding');

    // Assess
    expect(properties.Environment.Variables).toMatchObject({
      SERVICE_AWS_ACCOUNT_ID: { Ref: 'AWS::AccountId' },
      CONSENT_STATE_SECRET_ARN: { Ref: consentSecretId },
      AZURE_CLIENT_ID: azureClientId,
      AWS_TEMPLATE_URL: 'https://bucket.s3.amazonaws.com/role.json',
    });
    expect(properties.Environment.Variables.AZURE_CLIENT_SECRET_ARN).toBeUndefined();
    // The consent callback's base: the API's own base URL (the issuer), never a request's Host.
    expect(properties.Environment.Variables.PUBLIC_API_URL).toEqual(
      properties.Environment.Variables.ISSUER_URL,
    );
    expect(properties.Environment.Variables.API_STAGE).toBeUndefined();
    expect(properties.Timeout).toBe(10);
  });

  it("give the consent callback the onboarding function's settings (the consent secret checks the state) and the Azure app's secret (the consent's sign-in), and the default timeout", () => {
    // Act
    const properties = propertiesOf('onboarding-azure-consent');

    // Assess
    expect(properties.Environment.Variables).toMatchObject({
      SERVICE_AWS_ACCOUNT_ID: { Ref: 'AWS::AccountId' },
      CONSENT_STATE_SECRET_ARN: { Ref: consentSecretId },
      AZURE_CLIENT_ID: azureClientId,
      AZURE_CLIENT_SECRET_ARN: azureClientSecretArn,
      PUBLIC_API_URL: propertiesOf('onboarding').Environment.Variables.PUBLIC_API_URL,
    });
    expect(properties.Environment.Variables.AWS_TEMPLATE_URL).toBeUndefined();
    expect(properties.Timeout).toBe(10);
  });

  it('give each verification 28 s, under API Gateway’s 29 s: they wait on the customer’s cloud', () => {
    // Assess
    expect(propertiesOf('onboarding-aws-verify').Timeout).toBe(28);
    expect(propertiesOf('onboarding-azure-verify').Timeout).toBe(28);
  });

  it("give the consent callback (the consent's sign-in), the Azure verification, the usage sync and the purchase processor the app and its client secret, and no other function the secret's ARN", () => {
    // Act
    const variables = propertiesOf('onboarding-azure-verify').Environment.Variables;

    // Assess
    expect(variables).toMatchObject({
      AZURE_CLIENT_ID: azureClientId,
      AZURE_CLIENT_SECRET_ARN: azureClientSecretArn,
    });
    expect(variables.CONSENT_STATE_SECRET_ARN).toBeUndefined();
    expect(variables.SERVICE_AWS_ACCOUNT_ID).toBeUndefined();
    expect(secretsReadBy('onboarding-azure-verify')).toEqual([azureClientSecretArn]);
    const functions = api.findResources('AWS::Lambda::Function');
    const syncVariables =
      functions[logicalId(stacks.api.usageSync.sync.function)]?.Properties.Environment.Variables;
    expect(syncVariables).toMatchObject({
      AZURE_CLIENT_ID: azureClientId,
      AZURE_CLIENT_SECRET_ARN: azureClientSecretArn,
    });
    const holders = Object.entries(functions).filter(
      ([, resource]) => resource.Properties.Environment?.Variables?.AZURE_CLIENT_SECRET_ARN !== undefined,
    );
    expect(holders.map(([id]) => id).sort()).toEqual(
      [
        logicalId(functionOf('onboarding-azure-consent').function),
        logicalId(functionOf('onboarding-azure-verify').function),
        logicalId(stacks.api.usageSync.sync.function),
        // It buys Azure reservations and savings plans as the application (docs/purchases.md).
        logicalId(stacks.api.purchases.processor.function),
      ].sort(),
    );
  });

  it('generate the consent secret, and only the onboarding function and the consent callback read it; the Azure secret only the consent callback, the Azure verification, the usage sync and the purchase processor', () => {
    // Assess
    api.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 48, ExcludePunctuation: true },
    });
    expect(secretsReadBy('onboarding')).toEqual([{ Ref: consentSecretId }]);
    expect(secretsReadBy('onboarding-azure-consent')).toEqual([
      azureClientSecretArn,
      { Ref: consentSecretId },
    ]);
    const readers = Object.values(api.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes('secretsmanager:GetSecretValue'),
    );
    expect(readers.map((policy) => JSON.stringify(policy.Properties.Roles)).sort()).toEqual(
      [
        [{ Ref: logicalId(functionOf('onboarding').role) }],
        [{ Ref: logicalId(functionOf('onboarding-azure-consent').role) }],
        [{ Ref: logicalId(functionOf('onboarding-azure-verify').role) }],
        // The Azure application's secret: it reads the customers' subscriptions (docs/usage-sync.md).
        [{ Ref: logicalId(stacks.api.usageSync.sync.role) }],
        // And buys with it (docs/purchases.md, Azure).
        [{ Ref: logicalId(stacks.api.purchases.processor.role) }],
        // Its own secret, the sign-in code key (sign-in-mail.test.ts).
        [{ Ref: logicalId(functionOf('oauth-sign-in').role) }],
      ]
        .map((roles) => JSON.stringify(roles))
        .sort(),
    );
  });

  it('let only the AWS verification assume the onboarding role, by name, in any account', () => {
    // Act
    const assuming = statementsOf('onboarding-aws-verify').filter((statement) =>
      [statement.Action].flat().includes('sts:AssumeRole'),
    );

    // Assess
    expect(assuming).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Resource: 'arn:aws:iam::*:role/commitment-planning-purchaser',
      },
    ]);
  });

  it('grant each function nothing outside the table and its own secret or role', () => {
    // Assess
    expect(servicesOf('onboarding')).toEqual(new Set(['dynamodb', 'secretsmanager', 'logs']));
    expect(servicesOf('onboarding-azure-consent')).toEqual(new Set(['dynamodb', 'secretsmanager', 'logs']));
    expect(servicesOf('onboarding-aws-verify')).toEqual(new Set(['dynamodb', 'sts', 'logs']));
    expect(servicesOf('onboarding-azure-verify')).toEqual(new Set(['dynamodb', 'secretsmanager', 'logs']));
  });
});

describe('the Azure verification without the app configured', () => {
  const { api, stacks } = synthesizeService();
  const azureVerify = stacks.api.groupFunctions.get('onboarding-azure-verify') as ServiceFunction;
  const logicalId = stacks.api.getLogicalId(azureVerify.function.node.defaultChild as CfnResource);

  it('has no Azure settings and reads no secret (every Azure check answers "not configured")', () => {
    // Act
    const variables = api.findResources('AWS::Lambda::Function')[logicalId]?.Properties.Environment.Variables;
    const roleId = stacks.api.getLogicalId(azureVerify.role.node.defaultChild as CfnResource);
    const policies = api.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });

    // Assess
    expect(variables.AZURE_CLIENT_ID).toBeUndefined();
    expect(variables.AZURE_CLIENT_SECRET_ARN).toBeUndefined();
    expect(JSON.stringify(policies)).not.toContain('secretsmanager:');
  });
});
