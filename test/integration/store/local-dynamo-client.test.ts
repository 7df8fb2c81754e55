import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { type MemoryDynamo, startMemoryDynamo } from '../../../shared/store/local-dynamo';
import {
  createLocalDocumentClient,
  createLocalPointReadClient,
  skippedLocalMiddlewares,
} from '../../../shared/store/local-dynamo-client';
import { getItem } from '../../../shared/store/table-client';
import { createTableIfMissing } from '../../../shared/store/table-setup';
import { recordSentHeaders } from '../../support/sent-requests';

describe('createLocalDocumentClient and createLocalPointReadClient', () => {
  let engine: MemoryDynamo;

  beforeAll(async () => {
    engine = await startMemoryDynamo();
  });

  afterAll(async () => {
    await engine.close();
  });

  it('sends requests without a SigV4 signature, which dynalite serves', async () => {
    // Prepare
    const client = createLocalDocumentClient(engine);
    await createTableIfMissing(client, 'unsigned');
    const sent = recordSentHeaders(client);

    const pointReads = createLocalPointReadClient(engine);
    const sentReads = recordSentHeaders(pointReads);

    // Act
    await client.send(new PutCommand({ TableName: 'unsigned', Item: { PK: 'a', SK: 'b', n: 1 } }));
    const { Item } = await client.send(new GetCommand({ TableName: 'unsigned', Key: { PK: 'a', SK: 'b' } }));
    const read = await getItem({ client, pointReads, tableName: 'unsigned' }, { PK: 'a', SK: 'b' });
    client.destroy();
    pointReads.destroy();

    // Assess
    expect(Item).toEqual({ PK: 'a', SK: 'b', n: 1 });
    expect(read).toEqual(Item);
    expect(sent).toHaveLength(2);
    expect(sentReads).toHaveLength(1);
    for (const headers of [...sent, ...sentReads])
      expect(headers.authorization).toMatch(/, Signature=unsigned$/);
  });

  it('leaves out the SDK steps a local engine has no use for, and still serves requests', async () => {
    // Prepare
    const stepsOf = (client: DynamoDBDocumentClient | DynamoDBClient) => client.middlewareStack.identify();
    const awsClient = createDocumentClient({ region: 'eu-west-1' });
    const client = createLocalDocumentClient(engine);
    const pointReads = createLocalPointReadClient(engine);

    // Act
    await createTableIfMissing(client, 'trimmed');
    const { Item } = await client.send(new GetCommand({ TableName: 'trimmed', Key: { PK: 'a', SK: 'b' } }));
    client.destroy();

    // Assess: identify() names each step `<name> - <step>`; the AWS client's stack has them all,
    // so a step the SDK renames fails here instead of staying in the local client unnoticed.
    const named = (steps: string[], name: string) => steps.some((step) => step.startsWith(`${name} `));
    for (const name of skippedLocalMiddlewares) {
      expect(named(stepsOf(awsClient), name)).toBe(true);
      expect(named(stepsOf(client), name)).toBe(false);
      expect(named(stepsOf(pointReads), name)).toBe(false);
    }
    pointReads.destroy();
    expect(Item).toBeUndefined();
    awsClient.destroy();
  });
});
