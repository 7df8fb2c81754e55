import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { buildApp, type ServiceAppConfig, type ServiceStacks } from '../../lib/app';
import { projectRoot } from '../../lib/project-paths';

/** The context `cdk synth` runs with (feature flags), read from cdk.json. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return cdkJson.context;
}

export interface AppOptions {
  /** @default false */
  readonly cloudFormationValidation?: boolean;
  /** Context on top of cdk.json's, as `cdk synth -c key=value` passes it. */
  readonly context?: Readonly<Record<string, string>>;
}

/**
 * An app with cdk.json's context that skips esbuild bundling (no stack is listed for bundling);
 * the bundle settings have their own test. CDK's built-in CloudFormation schema validation takes
 * most of a synthesis's time and only ever warns, so only the cdk-nag test turns it on.
 */
export function appWithoutBundling(options: AppOptions = {}): App {
  return new App({
    context: { ...cdkJsonContext(), ...options.context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: options.cloudFormationValidation ?? false,
  });
}

export interface SynthesizedService {
  readonly app: App;
  readonly stacks: ServiceStacks;
  readonly assembly: CloudAssembly;
  readonly api: Template;
  readonly stateful: Template;
}

/**
 * Builds the service exactly as bin/app.ts does (cdk-nag checks included: synthesis throws on any
 * unacknowledged finding) and synthesizes it once.
 */
export function synthesizeService(
  config?: ServiceAppConfig,
  options: Pick<AppOptions, 'context'> = {},
): SynthesizedService {
  const app = appWithoutBundling(options);
  const stacks = buildApp(app, config);
  const assembly = app.synth();
  return {
    app,
    stacks,
    assembly,
    api: Template.fromJSON(assembly.getStackByName(stacks.api.stackName).template),
    stateful: Template.fromJSON(assembly.getStackByName(stacks.stateful.stackName).template),
  };
}
