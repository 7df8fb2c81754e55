import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MemoryDynamo, startMemoryDynamo } from '../../../local/store/local-dynamo';
import { createLocalDocumentClient } from '../../../local/store/local-dynamo-client';
import { createTableIfMissing } from '../../../shared/store/table-setup';

describe('createTableIfMissing', () => {
  let engine: MemoryDynamo;
  let client: ReturnType<typeof createLocalDocumentClient>;

  beforeAll(async () => {
    engine = await startMemoryDynamo();
    client = createLocalDocumentClient(engine);
  });

  afterAll(async () => {
    client.destroy();
    await engine.close();
  });

  it('creates an active on-demand table with the keys of the table definition and GSI1 projecting all', async () => {
    // Act
    await createTableIfMissing(client, 'setup-create');

    // Assess
    const { Table } = await client.send(new DescribeTableCommand({ TableName: 'setup-create' }));
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(Table?.GlobalSecondaryIndexes).toEqual([
      expect.objectContaining({
        IndexName: 'GSI1',
        KeySchema: [
          { AttributeName: 'GSI1PK', KeyType: 'HASH' },
          { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      }),
    ]);
  });

  it('leaves an existing table as it is', async () => {
    // Prepare
    await createTableIfMissing(client, 'setup-twice');
    const before = await client.send(new DescribeTableCommand({ TableName: 'setup-twice' }));

    // Act
    await createTableIfMissing(client, 'setup-twice');

    // Assess
    const after = await client.send(new DescribeTableCommand({ TableName: 'setup-twice' }));
    expect(after.Table?.CreationDateTime).toEqual(before.Table?.CreationDateTime);
  });
});
