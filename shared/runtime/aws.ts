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
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!tableName) throw new Error('TABLE_NAME is not set: the table the service stores its data in');
  if (!region) throw new Error('AWS_REGION is not set');
  return { tableName, region };
}

/** The function's region, as Lambda sets it (us-east-1 where nothing does, e.g. a script). */
export function regionOf(env: NodeJS.ProcessEnv): string {
  return env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
}

/** The service's table on AWS: one DynamoDB client per Lambda container. */
export function createAwsTable(config: AwsConfig): TableClient {
  return { client: createDocumentClient({ region: config.region }), tableName: config.tableName };
}

/** The composition root on AWS with every repository (the SQS consumers). */
export function createAwsAppContext(config: AwsConfig): AppContext {
  return createAppContext(createAwsTable(config));
}
