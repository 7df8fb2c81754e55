import type { AppContext } from '../app/ports';
import { createDocumentClient } from '../store/dynamo-client';
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

/** The composition root on AWS: one DynamoDB client per Lambda container, created on first use. */
export function createAwsAppContext(config: AwsConfig): AppContext {
  return createAppContext({
    client: createDocumentClient({ region: config.region }),
    tableName: config.tableName,
  });
}
