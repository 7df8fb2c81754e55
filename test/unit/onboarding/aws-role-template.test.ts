import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { onboardingRoleName } from '../../../shared/domain/onboarding/aws-checks';
import {
  onboardingRoleTemplate,
  purchasePolicyName,
  quickCreateUrl,
  readPolicyName,
} from '../../../shared/domain/onboarding/aws-role-template';
import { repositoryRoot } from '../../support/entry-point-process';

const serviceAccountId = '111122223333';
const externalId = 'cpo-0123456789abcdef0123456789abcdef';

function load(): Template {
  // The template as the endpoint sends it: JSON text, loaded the way CloudFormation would read it.
  const text = JSON.stringify(
    onboardingRoleTemplate({ serviceAccountId, externalId, exportBucket: 'acme-cur', exportPrefix: 'cur' }),
  );
  return Template.fromJSON(JSON.parse(text));
}

type Statement = { Action: string | string[]; Resource: unknown; Sid?: string };

function statementsOf(template: Template, policyName: string): Statement[] {
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { PolicyName: policyName } });
  const [policy] = Object.values(policies);
  return policy?.Properties.PolicyDocument.Statement ?? [];
}

const actionsOf = (statements: Statement[]) => statements.flatMap((statement) => [statement.Action].flat());

/**
 * The IAM actions the `aws` marketplace's SDK calls need: each `new <Name>Command(` of
 * shared/cloud/marketplace/aws-*.ts, named with its client's service prefix.
 */
function marketplaceActions(): string[] {
  const dir = join(repositoryRoot, 'shared/cloud/marketplace');
  const prefixes: Record<string, string> = {
    'aws-ec2-reservations.ts': 'ec2',
    'aws-rds-reservations.ts': 'rds',
    'aws-savings-plans.ts': 'savingsplans',
  };
  return readdirSync(dir)
    .filter((file) => file in prefixes)
    .flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/new (\w+)Command\(/g)].map(
        (match) => `${prefixes[file]}:${match[1]}`,
      ),
    );
}

describe('the onboarding role template', () => {
  it('creates the role the purchase processor assumes, trusting only the service account with the external id', () => {
    // Act
    const template = load();

    // Assess
    template.resourceCountIs('AWS::IAM::Role', 1);
    template.hasResourceProperties('AWS::IAM::Role', {
      RoleName: onboardingRoleName,
      AssumeRolePolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: 'sts:AssumeRole',
            Principal: { AWS: { 'Fn::Sub': `arn:\${AWS::Partition}:iam::${serviceAccountId}:root` } },
            Condition: { StringEquals: { 'sts:ExternalId': { Ref: 'ExternalId' } } },
          },
        ],
      },
    });
    template.hasParameter('ExternalId', { Type: 'String', NoEcho: true, Default: externalId });
    template.hasOutput('RoleArn', { Value: { 'Fn::GetAtt': ['OnboardingRole', 'Arn'] } });
  });

  it('reads cost data only where the export is delivered, and the commitments owned', () => {
    // Act
    const statements = statementsOf(load(), readPolicyName);

    // Assess
    expect(actionsOf(statements).sort()).toEqual(
      [
        'bcm-data-exports:GetExport',
        'bcm-data-exports:ListExports',
        'ce:GetCostAndUsage',
        'cur:DescribeReportDefinitions',
        's3:GetObject',
        's3:ListBucket',
        'ec2:DescribeReservedInstances',
        'rds:DescribeReservedDBInstances',
        'savingsplans:DescribeSavingsPlans',
        'savingsplans:DescribeSavingsPlansRates',
      ].sort(),
    );
    expect(statements.find((statement) => statement.Action.includes('s3:GetObject'))?.Resource).toEqual({
      'Fn::Sub': `arn:\${AWS::Partition}:s3:::\${ExportBucket}/\${ExportPrefix}*`,
    });
    expect(load().toJSON().Parameters.ExportBucket.Default).toBe('acme-cur');
  });

  it('grants, in its own policy, exactly the calls the aws marketplace makes', () => {
    // Act
    const actions = actionsOf(statementsOf(load(), purchasePolicyName));

    // Assess
    expect(new Set(actions)).toEqual(new Set(marketplaceActions()));
    expect(actions).toContain('ec2:PurchaseReservedInstancesOffering');
    expect(actions).toContain('savingsplans:CreateSavingsPlan');
    expect(actions).toContain('rds:PurchaseReservedDBInstancesOffering');
  });

  it('names every action: no wildcard in any action, and no policy beyond the two', () => {
    // Act
    const template = load();
    const all = [readPolicyName, purchasePolicyName].flatMap((name) =>
      actionsOf(statementsOf(template, name)),
    );

    // Assess
    expect(all.filter((action) => action.includes('*'))).toEqual([]);
    template.resourceCountIs('AWS::IAM::Policy', 2);
    template.resourcePropertiesCountIs('AWS::IAM::Role', { ManagedPolicyArns: Match.anyValue() }, 0);
    template.resourcePropertiesCountIs('AWS::IAM::Role', { Policies: Match.anyValue() }, 0);
  });
});

describe('the quick-create link', () => {
  it('opens quick create with the published template and fills in the external id and export', () => {
    // Act
    const url = new URL(
      quickCreateUrl({
        templateUrl: 'https://bucket.s3.amazonaws.com/onboarding.json',
        externalId,
        exportBucket: 'acme-cur',
        exportPrefix: 'cur',
      }),
    );

    // Assess
    const params = new URLSearchParams(url.hash.split('?')[1]);
    expect(url.hash).toMatch(/^#\/stacks\/quickcreate\?/);
    expect(params.get('templateURL')).toBe('https://bucket.s3.amazonaws.com/onboarding.json');
    expect(params.get('param_ExternalId')).toBe(externalId);
    expect(params.get('param_ExportBucket')).toBe('acme-cur');
  });

  it('opens stack creation, where the template is uploaded, when none is published', () => {
    // Act
    const url = quickCreateUrl({ templateUrl: null, externalId, exportBucket: null, exportPrefix: null });

    // Assess
    expect(url).toContain('#/stacks/create/template?stackName=commitment-planning-onboarding');
    expect(url).not.toContain('templateURL');
  });
});
