import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack, Validations } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../lib/app';
import { routes } from '../../shared/contract/operations';
import { appWithoutBundling } from './service-app';

/** `path rule` of every acknowledgment recorded in the construct tree. */
function acknowledgments(root: IConstruct): string[] {
  return root.node
    .findAll()
    .flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) =>
          Object.keys(entry.data as Record<string, string>).map(
            (id) => `${construct.node.path} ${id.replace(/^annotation::/i, '')}`,
          ),
        ),
    )
    .sort();
}

describe('cdk-nag AWS Solutions checks', () => {
  it('find nothing unacknowledged in the service, nor does CloudFormation schema validation', () => {
    // Prepare
    const app = appWithoutBundling({ cloudFormationValidation: true });
    buildApp(app);

    // Act: synthesis throws with the report when a check fails; the pack is also run directly.
    const assembly = app.synth();
    const report = JSON.parse(readFileSync(join(assembly.directory, VALIDATION_REPORT_FILE), 'utf8'));
    const nagReport = new AwsSolutionsChecks().validateScope(app);

    // Assess: the report lists only plugins with findings, warnings included.
    expect(report.pluginReports).toEqual([]);
    expect(nagReport.violations).toEqual([]);
  });

  it('fail synthesis of the built app on a finding', () => {
    // Prepare: a table without point-in-time recovery (AwsSolutions-DDB3).
    const app = appWithoutBundling();
    buildApp(app);
    new Table(new Stack(app, 'Probe'), 'Unrecoverable', {
      partitionKey: { name: 'PK', type: AttributeType.STRING },
    });

    // Act / Assess
    expect(() => app.synth()).toThrow(/AwsSolutions-DDB3/);
  });

  const restApi = 'CommitmentPlanning-Api/RestApi/Api';
  const servedPaths = [...new Set(routes.map((route) => route.path))];
  /** What a simulated deployment acknowledges: API-wide choices and methods without credentials. */
  const apiAcknowledgments = [
    `${restApi} AwsSolutions-APIG2`,
    `${restApi} AwsSolutions-COG4`,
    `${restApi}/DeploymentStage.prod AwsSolutions-APIG3`,
    `${restApi}/DeploymentStage.prod AwsSolutions-APIG6`,
    ...routes
      .filter((route) => route.withoutAuthorizer)
      .map((route) => `${restApi}/Default${route.path}/${route.method} AwsSolutions-APIG4`),
    ...servedPaths.map((path) => `${restApi}/Default${path}/ANY AwsSolutions-APIG4`),
    // The verifier assumes the onboarding role in customer accounts; its HMAC secret is not rotated.
    'CommitmentPlanning-Api/Onboarding/ConsentStateSecret AwsSolutions-SMG4',
    'CommitmentPlanning-Api/SignInCodeSecret AwsSolutions-SMG4',
    'CommitmentPlanning-Api/onboarding-aws-verify/Role AwsSolutions-IAM5[Resource::arn:aws:iam::*:role/commitment-planning-purchaser]',
    // The usage sync reads the customers' exports through the same role.
    'CommitmentPlanning-Api/UsageSync/Sync/Role AwsSolutions-IAM5[Resource::arn:aws:iam::*:role/commitment-planning-purchaser]',
    // The catalog refresh's dead-letter queue is a Lambda destination's and a schedule's, not a queue's.
    'CommitmentPlanning-Api/CatalogRefresh/DeadLetterQueue AwsSolutions-SQS3',
  ];

  it('are acknowledged only where a reason is given: API-wide choices and public methods', () => {
    // Prepare
    const app = appWithoutBundling();
    buildApp(app);
    const publicPaths = routes.filter((route) => route.withoutAuthorizer).map((route) => route.path);

    // Act
    const acknowledged = acknowledgments(app);

    // Assess
    expect(acknowledged).toEqual([...apiAcknowledgments].sort());
    expect(publicPaths.length).toBeGreaterThan(0);
  });

  it('find nothing unacknowledged with marketplace=aws, whose one addition is the role in any buying account', () => {
    // Prepare
    const app = appWithoutBundling({
      context: {
        marketplace: 'aws',
        marketplaceRoleArn: 'arn:aws:iam::{account_id}:role/commitment-planning-purchaser',
      },
    });
    buildApp(app);

    // Act: synthesis throws with the report when a check fails.
    app.synth();
    const nagReport = new AwsSolutionsChecks().validateScope(app);

    // Assess
    expect(nagReport.violations).toEqual([]);
    expect(acknowledgments(app)).toEqual(
      [
        ...apiAcknowledgments,
        'CommitmentPlanning-Api/Purchases/Processor/Role AwsSolutions-IAM5[Resource::arn:aws:iam::*:role/commitment-planning-purchaser]',
      ].sort(),
    );
  });
});
