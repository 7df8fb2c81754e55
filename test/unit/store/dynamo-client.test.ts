import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
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
  it('signs requests with SigV4, as on AWS', async () => {
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
