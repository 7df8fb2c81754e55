import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import toFastProperties from 'to-fast-properties';

export interface DocumentClientOptions {
  /** A local engine's URL (dynalite); the AWS endpoint of `region` when absent. */
  readonly endpoint?: string;
  readonly region: string;
  /** The default provider chain (the Lambda role) when absent. */
  readonly credentials?: DynamoDBClientConfig['credentials'];
  /** SigV4 with `credentials` when absent; a local engine does not check signatures. */
  readonly signer?: DynamoDBClientConfig['signer'];
  /** HTTP to the endpoint when absent; a local engine in this process takes calls without it. */
  readonly requestHandler?: DynamoDBClientConfig['requestHandler'];
}

/*
 * Both clients' resolved configurations are made fast objects again (to-fast-properties): the SDK
 * builds them by adding some fifty properties one by one, which leaves V8 keeping them as hash
 * tables, and its steps copy the whole configuration with a spread three times per call (endpoint,
 * serializer, deserializer). A spread of the configuration took 15 us as it comes and 1.6 us once
 * fast: about a tenth of the API's CPU per request, which makes two reads.
 */
function clientConfig(options: DocumentClientOptions): DynamoDBClientConfig {
  return {
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.signer ? { signer: options.signer } : {}),
    ...(options.requestHandler ? { requestHandler: options.requestHandler } : {}),
  };
}

/**
 * The document client the repositories use; create one per process, at load. Undefined
 * attributes are dropped (that is how items store null), and only plain objects become maps, so
 * a class instance reaching the store is an error instead of a silently flattened item.
 */
export function createDocumentClient(options: DocumentClientOptions): DynamoDBDocumentClient {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(options)), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
  // Shared with the wrapped client, which it has just added to.
  toFastProperties(client.config);
  return client;
}

/**
 * The client single-item reads go through (`getItem`, table-client.ts): the plain DynamoDB client
 * with its middleware stack resolved once per command class (`cacheMiddleware`), which the document
 * client refuses. Every authenticated request reads its key and membership, so these reads are the
 * request path's storage calls: resolving the stack for each of them was about a third of a read's
 * client CPU. Middleware added to this client after its first read is not applied.
 */
export function createPointReadClient(options: DocumentClientOptions): DynamoDBClient {
  const client = new DynamoDBClient({ ...clientConfig(options), cacheMiddleware: true });
  toFastProperties(client.config);
  return client;
}
