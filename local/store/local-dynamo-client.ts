import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/store/dynamo-client';

/** dynalite accepts any credentials, but the SDK resolves some before every request. */
export const localDynamoCredentials = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/** The store's document client, pointed at a local engine (dynalite) with the local credentials. */
export function createLocalDocumentClient(engine: { readonly endpoint: string }): DynamoDBDocumentClient {
  return createDocumentClient({
    endpoint: engine.endpoint,
    region: 'local',
    credentials: localDynamoCredentials,
  });
}
