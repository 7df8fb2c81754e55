import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { startDynaliteThread } from '../../../shared/store/dynalite-thread';
import { createLocalDocumentClient } from '../../../shared/store/local-dynamo-client';
import { createTableIfMissing } from '../../../shared/store/table-setup';

describe('startDynaliteThread', () => {
  it('serves the DynamoDB API from its thread until closed', async () => {
    // Prepare
    const engine = await startDynaliteThread({ createTableMs: 0 });
    const client = createLocalDocumentClient(engine.endpoint);
    await createTableIfMissing(client, 'threaded');

    // Act
    await client.send(new PutCommand({ TableName: 'threaded', Item: { PK: 'a', SK: 'b', n: 1 } }));
    const { Item } = await client.send(new GetCommand({ TableName: 'threaded', Key: { PK: 'a', SK: 'b' } }));
    await engine.close();
    const afterClose = fetch(engine.endpoint, { method: 'POST' });
    client.destroy();

    // Assess
    expect(Item).toEqual({ PK: 'a', SK: 'b', n: 1 });
    await expect(afterClose).rejects.toThrow();
  });
});
