import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynaliteThread, startDynaliteThread } from '../../../shared/store/dynalite-thread';
import { createLocalDocumentClient } from '../../../shared/store/local-dynamo-client';
import { createTableIfMissing } from '../../../shared/store/table-setup';

const tableName = 'threaded';

describe('startDynaliteThread', () => {
  let engine: DynaliteThread;

  beforeAll(async () => {
    engine = await startDynaliteThread({ createTableMs: 0 });
    const client = createLocalDocumentClient(engine);
    await createTableIfMissing(client, tableName);
    client.destroy();
  });

  afterAll(async () => {
    await engine.close();
  });

  it('serves this process through its request handler and other processes over HTTP, on the same data', async () => {
    // Prepare: nothing listens on the first client's endpoint, so its calls cannot go over HTTP.
    const inProcess = createLocalDocumentClient({
      endpoint: 'http://127.0.0.1:9',
      requestHandler: engine.requestHandler,
    });
    const overHttp = createLocalDocumentClient({ endpoint: engine.endpoint });

    // Act
    await inProcess.send(new PutCommand({ TableName: tableName, Item: { PK: 'a', SK: 'b', n: 1 } }));
    const read = (client: typeof inProcess) =>
      client.send(new GetCommand({ TableName: tableName, Key: { PK: 'a', SK: 'b' } }));
    const [seenInProcess, seenOverHttp] = await Promise.all([read(inProcess), read(overHttp)]);
    inProcess.destroy();
    overHttp.destroy();

    // Assess
    expect(seenInProcess.Item).toEqual({ PK: 'a', SK: 'b', n: 1 });
    expect(seenOverHttp.Item).toEqual({ PK: 'a', SK: 'b', n: 1 });
  });

  it("answers the engine's errors through the request handler as over HTTP", async () => {
    // Prepare
    const client = createLocalDocumentClient(engine);

    // Act
    const missingTable = client.send(
      new GetCommand({ TableName: 'no-such-table', Key: { PK: 'a', SK: 'b' } }),
    );

    // Assess
    await expect(missingTable).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    client.destroy();
  });

  it('stops serving both ways once closed', async () => {
    // Prepare
    const stopping = await startDynaliteThread({ createTableMs: 0 });
    const client = createLocalDocumentClient(stopping);

    // Act
    await stopping.close();
    const inProcess = client.send(new GetCommand({ TableName: tableName, Key: { PK: 'a', SK: 'b' } }));
    const overHttp = fetch(stopping.endpoint, { method: 'POST' });

    // Assess
    await expect(inProcess).rejects.toThrow('stopped');
    await expect(overHttp).rejects.toThrow();
    client.destroy();
  });
});
