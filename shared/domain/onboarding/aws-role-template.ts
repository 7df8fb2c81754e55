import { onboardingRoleName } from './aws-checks';

/**
 * The CloudFormation template a customer deploys in its AWS account (docs/onboarding.md): the onboarding
 * role, trusting the service's account only with the org's external id, with two policies named
 * apart: reading cost data (what the verifier checks and the usage sync reads: the export and the
 * commitments owned) and purchasing
 * commitments (exactly the calls of shared/cloud/marketplace/aws-*.ts). Every action is named:
 * no action wildcard. Actions without resource-level permissions have `*` as their resource.
 */

export interface RoleTemplateInput {
  /** The AWS account the service runs in: the only principal the role trusts. */
  readonly serviceAccountId: string;
  readonly externalId: string;
  /** Defaults of the export's location when the org named it already (#18). */
  readonly exportBucket: string | null;
  readonly exportPrefix: string | null;
}

export const readPolicyName = 'commitment-planning-read-cost-data';
export const purchasePolicyName = 'commitment-planning-purchase-commitments';
export const onboardingStackName = 'commitment-planning-onboarding';

/** The actions each policy grants, by what needs them. */
export const readActions = {
  exports: ['bcm-data-exports:ListExports', 'bcm-data-exports:GetExport', 'cur:DescribeReportDefinitions'],
  bucketList: ['s3:ListBucket'],
  bucketRead: ['s3:GetObject'],
  costExplorer: ['ce:GetCostAndUsage'],
  /** What a usage sync reads of the commitments the account owns (without the purchase policy too). */
  ownedCommitments: [
    'ec2:DescribeReservedInstances',
    'rds:DescribeReservedDBInstances',
    'savingsplans:DescribeSavingsPlans',
    'savingsplans:DescribeSavingsPlansRates',
  ],
} as const;

export const purchaseActions = {
  ec2: [
    'ec2:DescribeReservedInstancesOfferings',
    'ec2:DescribeReservedInstances',
    'ec2:PurchaseReservedInstancesOffering',
  ],
  ec2Tags: ['ec2:CreateTags'],
  rds: [
    'rds:DescribeReservedDBInstancesOfferings',
    'rds:DescribeReservedDBInstances',
    'rds:PurchaseReservedDBInstancesOffering',
  ],
  savingsPlans: [
    'savingsplans:DescribeSavingsPlansOfferings',
    'savingsplans:DescribeSavingsPlans',
    'savingsplans:CreateSavingsPlan',
  ],
} as const;

/** A `${Name}` placeholder of CloudFormation's Fn::Sub. */
const ref = (name: string) => `\${${name}}`;

export function onboardingRoleTemplate(input: RoleTemplateInput): Record<string, unknown> {
  const exportLocation = {
    bucket: { 'Fn::Sub': `arn:${ref('AWS::Partition')}:s3:::${ref('ExportBucket')}` },
    objects: {
      'Fn::Sub': `arn:${ref('AWS::Partition')}:s3:::${ref('ExportBucket')}/${ref('ExportPrefix')}*`,
    },
  };
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description:
      'Commitment planning onboarding: a role the service assumes (with your external id) to read cost data and, with the separate purchase policy, buy commitments',
    Parameters: {
      ExternalId: {
        Type: 'String',
        NoEcho: true,
        Default: input.externalId,
        MinLength: 2,
        Description: 'The external id the service presents; keep it secret',
      },
      ExportBucket: {
        Type: 'String',
        ...(input.exportBucket ? { Default: input.exportBucket } : {}),
        AllowedPattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
        Description: 'The S3 bucket your Cost and Usage export (Data Exports or CUR) is delivered to',
      },
      ExportPrefix: {
        Type: 'String',
        Default: input.exportPrefix ?? '',
        Description: 'The key prefix of the export in the bucket (may be empty)',
      },
    },
    Resources: {
      OnboardingRole: {
        Type: 'AWS::IAM::Role',
        Properties: {
          RoleName: onboardingRoleName,
          Description: 'Assumed by the commitment planning service',
          MaxSessionDuration: 3600,
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: {
                  AWS: { 'Fn::Sub': `arn:${ref('AWS::Partition')}:iam::${input.serviceAccountId}:root` },
                },
                Action: 'sts:AssumeRole',
                Condition: { StringEquals: { 'sts:ExternalId': { Ref: 'ExternalId' } } },
              },
            ],
          },
        },
      },
      ReadCostDataPolicy: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          PolicyName: readPolicyName,
          Roles: [{ Ref: 'OnboardingRole' }],
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              { Sid: 'CostExports', Effect: 'Allow', Action: [...readActions.exports], Resource: '*' },
              {
                Sid: 'ListExportPrefix',
                Effect: 'Allow',
                Action: [...readActions.bucketList],
                Resource: exportLocation.bucket,
                Condition: { StringLike: { 's3:prefix': { 'Fn::Sub': `${ref('ExportPrefix')}*` } } },
              },
              {
                Sid: 'ReadExportObjects',
                Effect: 'Allow',
                Action: [...readActions.bucketRead],
                Resource: exportLocation.objects,
              },
              { Sid: 'CostExplorer', Effect: 'Allow', Action: [...readActions.costExplorer], Resource: '*' },
              {
                Sid: 'OwnedCommitments',
                Effect: 'Allow',
                Action: [...readActions.ownedCommitments],
                Resource: '*',
              },
            ],
          },
        },
      },
      PurchaseCommitmentsPolicy: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          PolicyName: purchasePolicyName,
          Roles: [{ Ref: 'OnboardingRole' }],
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              { Sid: 'Ec2Reservations', Effect: 'Allow', Action: [...purchaseActions.ec2], Resource: '*' },
              {
                Sid: 'TagEc2Reservations',
                Effect: 'Allow',
                Action: [...purchaseActions.ec2Tags],
                Resource: {
                  'Fn::Sub': `arn:${ref('AWS::Partition')}:ec2:*:${ref('AWS::AccountId')}:reserved-instances/*`,
                },
              },
              { Sid: 'RdsReservations', Effect: 'Allow', Action: [...purchaseActions.rds], Resource: '*' },
              {
                Sid: 'SavingsPlans',
                Effect: 'Allow',
                Action: [...purchaseActions.savingsPlans],
                Resource: '*',
              },
            ],
          },
        },
      },
    },
    Outputs: {
      RoleArn: {
        Description: 'Give this to the service',
        Value: { 'Fn::GetAtt': ['OnboardingRole', 'Arn'] },
      },
    },
  };
}

/**
 * The console link that creates the stack with the parameters filled in. CloudFormation's quick
 * create needs the template at an S3 URL (`templateUrl`, where the operator publishes it); without
 * one, the link opens stack creation, where the customer uploads the template.
 */
export function quickCreateUrl(input: {
  readonly templateUrl: string | null;
  readonly externalId: string;
  readonly exportBucket: string | null;
  readonly exportPrefix: string | null;
}): string {
  const params = new URLSearchParams({ stackName: onboardingStackName });
  if (input.templateUrl) params.set('templateURL', input.templateUrl);
  params.set('param_ExternalId', input.externalId);
  if (input.exportBucket) params.set('param_ExportBucket', input.exportBucket);
  if (input.exportPrefix) params.set('param_ExportPrefix', input.exportPrefix);
  const page = input.templateUrl ? 'quickcreate' : 'create/template';
  return `https://console.aws.amazon.com/cloudformation/home#/stacks/${page}?${params.toString()}`;
}
