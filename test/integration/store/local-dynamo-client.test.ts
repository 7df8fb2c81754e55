import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MemoryDynamo, startMemoryDynamo } from '../../../shared/store/local-dynamo';
import { createLocalDocumentClient } from '../../../shared/store/local-dynamo-client';
import { createTableIfMissing } from '../../../shared/store/table-setup';
import { recordSentHeaders } from '../../support/sent-requests';

describe('createLocalDocumentClient', () => {
  let engine: MemoryDynamo;

  beforeAll(async () => {
    engine = await startMemoryDynamo();
  });

  afterAll(async () => {
    await engine.close();
  });

  it('sends requests without a SigV4 signature, which dynalite serves', async () => {
    // Prepare
    const client = createLocalDocumentClient(engine.endpoint);
    await createTableIfMissing(client, 'unsigned');
    const sent = recordSentHeaders(client);

    // Act
    await client.send(new PutCommand({ TableName: 'unsigned', Item: { PK: 'a', SK: 'b', n: 1 } }));
    const { Item } = await client.send(new GetCommand({ TableName: 'unsigned', Key: { PK: 'a', SK: 'b' } }));
    client.destroy();

    // Assess
    expect(Item).toEqual({ PK: 'a', SK: 'b', n: 1 });
    expect(sent).toHaveLength(2);
    for (const headers of sent) expect(headers.authorization).toMatch(/, Signature=unsigned$/);
  });
});
