import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient, createPointReadClient } from '../../../shared/store/dynamo-client';
import { recordSentHeaders } from '../../support/sent-requests';

// Nothing listens on the endpoint: each request is recorded once signed, then fails.
const awsLike = {
  endpoint: 'http://127.0.0.1:9',
  region: 'eu-west-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
};
const sigV4 =
  /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/;

describe('createDocumentClient', () => {
  it('signs requests with SigV4 when no signer is given, as on AWS', async () => {
    // Prepare
    const client = createDocumentClient(awsLike);
    const sent = recordSentHeaders(client);

    // Act
    await client
      .send(new GetCommand({ TableName: 'table', Key: { PK: 'a', SK: 'b' } }))
      .catch(() => undefined);
    client.destroy();

    // Assess
    expect(sent[0]?.authorization).toMatch(sigV4);
  });
});

describe('createPointReadClient', () => {
  it('signs every read with SigV4 when no signer is given, its steps resolved once for all', async () => {
    // Prepare
    const client = createPointReadClient(awsLike);
    const sent = recordSentHeaders(client);
    const read = (PK: string) =>
      client
        .send(new GetItemCommand({ TableName: 'table', Key: { PK: { S: PK }, SK: { S: 'b' } } }))
        .catch(() => undefined);

    // Act
    await read('first');
    await read('second');
    client.destroy();

    // Assess: the second read went through the same cached steps, as a call of its own (the SDK
    // retries a refused connection: each call has one invocation id over its attempts), signed.
    expect(client.config.cacheMiddleware).toBe(true);
    expect(new Set(sent.map((headers) => headers['amz-sdk-invocation-id'])).size).toBe(2);
    for (const headers of sent) expect(headers.authorization).toMatch(sigV4);
  });
});
