import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DocumentClientOptions {
  /** A local engine's URL (dynalite); the AWS endpoint of `region` when absent. */
  readonly endpoint?: string;
  readonly region: string;
  /** The default provider chain (the Lambda role) when absent. */
  readonly credentials?: DynamoDBClientConfig['credentials'];
}

/**
 * The document client the repositories use; create one per process, at load. Undefined
 * attributes are dropped (that is how items store null), and only plain objects become maps, so
 * a class instance reaching the store is an error instead of a silently flattened item.
 */
export function createDocumentClient(options: DocumentClientOptions): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }),
    {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      unmarshallOptions: { wrapNumbers: false },
    },
  );
}
