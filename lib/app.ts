import { type App, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack, type ApiStackProps } from './api-stack';
import { marketplaceFromContext } from './marketplace-config';
import { StatefulStack } from './stateful-stack';

export interface ServiceAppConfig {
  /** Account and region; unset values leave the stacks environment-agnostic. */
  readonly env?: Environment;
  /** API settings; every one has a default. */
  readonly api?: Omit<
    ApiStackProps,
    'table' | 'purchaseQueue' | 'purchaseDeadLetterQueue' | 'marketplace' | 'signingKeys' | 'env'
  >;
  /** The OAuth signing key generations, oldest first: append one to rotate. @default ['1'] */
  readonly signingKeyGenerations?: readonly string[];
}

export interface ServiceStacks {
  readonly stateful: StatefulStack;
  readonly api: ApiStack;
}

export const statefulStackName = 'CommitmentPlanning-Stateful';
export const apiStackName = 'CommitmentPlanning-Api';

/**
 * Builds the service into `app`: the stateful stack (table, purchase queues), the API stack that
 * uses it, and the cdk-nag AWS Solutions checks, which fail synthesis on any finding not
 * acknowledged with a reason. The marketplace comes from the app's context (`marketplace`,
 * `marketplaceRoleArn`: lib/marketplace-config.ts), so that only an
 * explicit `-c marketplace=aws` makes a deployment buy. `bin/app.ts` and the infra tests both
 * build the app with this function.
 */
export function buildApp(app: App, config: ServiceAppConfig = {}): ServiceStacks {
  const marketplace = marketplaceFromContext(app.node);
  const stateful = new StatefulStack(app, statefulStackName, {
    env: config.env,
    description: 'Commitment Planning service: data (DynamoDB table, purchase queues, OAuth signing keys)',
    ...(config.signingKeyGenerations ? { signingKeyGenerations: config.signingKeyGenerations } : {}),
  });
  const api = new ApiStack(app, apiStackName, {
    ...config.api,
    env: config.env,
    description: 'Commitment Planning service: REST API and functions',
    table: stateful.table,
    purchaseQueue: stateful.purchaseQueue,
    purchaseDeadLetterQueue: stateful.purchaseDeadLetterQueue,
    marketplace,
    signingKeys: stateful.signingKeys,
    ...mailFromContext(app),
    ...usageSyncContext(app),
    ...catalogRefreshContext(app),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { stateful, api };
}

/** `-c mailFrom=<address>`: the SES-verified sender of sign-in codes (docs/oauth.md). */
function mailFromContext(app: App): { mailFrom?: string } {
  const mailFrom: unknown = app.node.tryGetContext('mailFrom');
  if (mailFrom === undefined) return {};
  if (typeof mailFrom !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(mailFrom)) {
    throw new Error(`Context mailFrom must be an e-mail address; got ${String(mailFrom)}`);
  }
  return { mailFrom };
}

/**
 * `-c usageSyncSchedule=<expression>` (when the usage sync runs, e.g. `rate(12 hours)`) and
 * `-c usageSyncConcurrency=<n>` (sync invocations at once): docs/deploy.md.
 */
function usageSyncContext(app: App): { usageSyncSchedule?: string; usageSyncConcurrency?: number } {
  const schedule: unknown = app.node.tryGetContext('usageSyncSchedule');
  const concurrency: unknown = app.node.tryGetContext('usageSyncConcurrency');
  if (schedule !== undefined && typeof schedule !== 'string') {
    throw new Error(`Context usageSyncSchedule must be a schedule expression; got ${String(schedule)}`);
  }
  return {
    ...(schedule === undefined ? {} : { usageSyncSchedule: schedule }),
    ...(concurrency === undefined ? {} : { usageSyncConcurrency: Number(concurrency) }),
  };
}

/**
 * `-c catalogRefreshSchedule=<expression>` (when the catalog refresh runs, e.g. `rate(1 day)`) and
 * `-c catalogRefreshRegions=<r1,r2,...>` (the regions it reads): docs/deploy.md. The construct
 * checks both and names the key of a bad one.
 */
function catalogRefreshContext(app: App): {
  catalogRefreshSchedule?: string;
  catalogRefreshRegions?: readonly string[];
} {
  const schedule: unknown = app.node.tryGetContext('catalogRefreshSchedule');
  const regions: unknown = app.node.tryGetContext('catalogRefreshRegions');
  if (schedule !== undefined && typeof schedule !== 'string') {
    throw new Error(`Context catalogRefreshSchedule must be a schedule expression; got ${String(schedule)}`);
  }
  if (regions !== undefined && typeof regions !== 'string') {
    throw new Error(
      `Context catalogRefreshRegions must be region names, comma-separated; got ${String(regions)}`,
    );
  }
  return {
    ...(schedule === undefined ? {} : { catalogRefreshSchedule: schedule }),
    ...(regions === undefined
      ? {}
      : { catalogRefreshRegions: regions.split(',').map((region) => region.trim()) }),
  };
}
