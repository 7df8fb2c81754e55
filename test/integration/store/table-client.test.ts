/**
 * Single-item reads go through the point-read client and unmarshal themselves: they must answer
 * exactly what the document client answers for the same item, whatever its attributes hold.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../../shared/store/table-client';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startTestTable();
});

afterAll(async () => {
  await table.close();
});

describe('getItem', () => {
  it('answers an item as the document client does: numbers, maps, lists, sets, binary, null and booleans', async () => {
    // Prepare
    const item = {
      PK: 'ORG#a',
      SK: 'READ#1',
      count: 42,
      ratio: 0.1 + 0.2,
      large: 2 ** 53 - 1,
      negative: -17.5,
      nested: {
        role: 'admin',
        since: '2026-11-21T00:00:00.000Z',
        flags: [true, false, null],
        depth: { n: 1 },
      },
      list: ['a', 1, { b: 2 }],
      names: new Set(['x', 'y']),
      numbers: new Set([1, 2.5]),
      bytes: new Uint8Array([0, 1, 254, 255]),
      empty: '',
      nothing: null,
      yes: true,
    };
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: item }));

    // Act
    const read = await getItem(table, { PK: 'ORG#a', SK: 'READ#1' });
    const { Item: viaDocuments } = await table.client.send(
      new GetCommand({
        TableName: table.tableName,
        Key: { PK: 'ORG#a', SK: 'READ#1' },
        ConsistentRead: true,
      }),
    );

    // Assess
    expect(read).toEqual(viaDocuments);
    expect(read).toEqual(item);
  });

  it('answers null for a key with no item', async () => {
    // Act
    const read = await getItem(table, { PK: 'ORG#a', SK: 'READ#missing' });

    // Assess
    expect(read).toBeNull();
  });
});
