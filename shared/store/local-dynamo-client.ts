import type { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EngineRequestHandler } from './dynalite-thread';
import { createDocumentClient, createPointReadClient, type DocumentClientOptions } from './dynamo-client';

/** dynalite accepts any credentials, but the SDK resolves some before every request. */
export const localDynamoCredentials = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/**
 * dynalite checks that a request carries an AWS4 `Authorization` header naming a credential, the
 * signed headers and a signature, and a date, but never the signature itself. Fixed headers
 * instead of a SigV4 signature save its canonical request and HMACs on every storage call. The
 * date is never checked either.
 */
const unsignedLocalRequests: NonNullable<DynamoDBClientConfig['signer']> = {
  async sign(request) {
    request.headers.authorization =
      'AWS4-HMAC-SHA256 Credential=local/20000101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=unsigned';
    request.headers['x-amz-date'] = '20000101T000000Z';
    return request;
  },
};

/**
 * Steps of the SDK's middleware stack that serve nothing on a local engine, yet cost each call
 * about a sixth of its client CPU: the logger step filters every input and output for a log the
 * client never writes (it has no logger), and the user agent step builds a header dynalite ignores.
 */
export const skippedLocalMiddlewares = ['loggerMiddleware', 'getUserAgentMiddleware'] as const;

/** Where a local engine is: its endpoint, and how to call it without HTTP when this process runs it. */
export interface LocalEngineAccess {
  readonly endpoint: string;
  readonly requestHandler?: EngineRequestHandler;
}

function localClientOptions(engine: LocalEngineAccess): DocumentClientOptions {
  return {
    endpoint: engine.endpoint,
    region: 'local',
    credentials: localDynamoCredentials,
    signer: unsignedLocalRequests,
    requestHandler: engine.requestHandler,
  };
}

/**
 * The document client for a local engine (dynalite): the store's client, with the local
 * credentials, without request signing and without `skippedLocalMiddlewares`, and without HTTP
 * when the engine runs in this process. Only the local runtime and tests use it; on AWS the client
 * is `createDocumentClient`'s as it comes.
 */
export function createLocalDocumentClient(engine: LocalEngineAccess): DynamoDBDocumentClient {
  const client = createDocumentClient(localClientOptions(engine));
  for (const name of skippedLocalMiddlewares) client.middlewareStack.remove(name);
  return client;
}

/** The point-read client (`createPointReadClient`) for a local engine, set up as the document client is. */
export function createLocalPointReadClient(engine: LocalEngineAccess): DynamoDBClient {
  const client = createPointReadClient(localClientOptions(engine));
  for (const name of skippedLocalMiddlewares) client.middlewareStack.remove(name);
  return client;
}
