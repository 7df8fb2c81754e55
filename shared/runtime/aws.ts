import type { AppContext } from '../app/ports';
import { createDocumentClient } from '../store/dynamo-client';
import type { TableClient } from '../store/table-client';
import { createAppContext } from './app-context';

/** What a Lambda function reads from its environment (set by the CDK API stack). */
export interface AwsConfig {
  readonly tableName: string;
  readonly region: string;
}

export function readAwsConfig(env: NodeJS.ProcessEnv): AwsConfig {
  const tableName = env.TABLE_NAME;
  const region = configuredRegion(env);
  if (!tableName) throw new Error('TABLE_NAME is not set: the table the service stores its data in');
  if (!region) throw new Error('AWS_REGION is not set');
  return { tableName, region };
}

/**
 * The region the environment names: on Lambda always `AWS_REGION`. Undefined lets the SDK client
 * find it where it looks next, the shared config file (an operator's profile, for the admin CLI).
 */
export function configuredRegion(env: NodeJS.ProcessEnv): string | undefined {
  return env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
}

/** The service's table on AWS: one DynamoDB client per Lambda container. */
export function createAwsTable(config: AwsConfig): TableClient {
  return { client: createDocumentClient({ region: config.region }), tableName: config.tableName };
}

/** The composition root on AWS with every repository (the SQS consumers). */
export function createAwsAppContext(config: AwsConfig): AppContext {
  return createAppContext(createAwsTable(config));
}
