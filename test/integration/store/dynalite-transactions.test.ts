/**
 * TransactWriteItems on dynalite (patches/dynalite+4.0.0.patch, docs/data-model.md): all or
 * nothing, conditions checked on locked items before any write, answered as DynamoDB answers.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../../shared/store/table-client';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;
let run = 0;

beforeAll(async () => {
  table = await startTestTable();
});

afterAll(async () => {
  await table.close();
});

/** One operation of a transaction, on the test table (added by `transact`). */
type TransactItem = Partial<Record<'Put' | 'Update' | 'Delete' | 'ConditionCheck', Record<string, unknown>>>;

interface Key {
  readonly PK: string;
  readonly SK: string;
}

/** Keys unique to one test, so tests never see each other's items. */
function keysOf<const Names extends readonly string[]>(
  ...names: Names
): { readonly [I in keyof Names]: Key } {
  run += 1;
  return names.map((name) => ({ PK: `TXN#${run}`, SK: name })) as { readonly [I in keyof Names]: Key };
}

function transact(items: TransactItem[]): Promise<unknown> {
  return table.client.send(
    new TransactWriteCommand({
      TransactItems: items.map((item): NonNullable<TransactWriteCommandInput['TransactItems']>[number] => {
        const [operation, params] = Object.entries(item)[0] as [string, object];
        return { [operation]: { TableName: table.tableName, ...params } };
      }),
    }),
  );
}

async function cancellation(items: TransactItem[]): Promise<TransactionCanceledException> {
  const error = await transact(items).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TransactionCanceledException);
  return error as TransactionCanceledException;
}

const read = (key: Key) => getItem(table, key);

async function gsi1(partition: string): Promise<unknown[]> {
  const { Items } = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': partition },
    }),
  );
  return Items ?? [];
}

describe('TransactWriteItems on dynalite', () => {
  it('writes every Put, Update and Delete when every condition holds', async () => {
    // Prepare
    const [put, updated, deleted, checked] = keysOf('put', 'updated', 'deleted', 'checked');
    await transact([
      { Put: { Item: { ...updated, n: 2, tags: ['a'] } } },
      { Put: { Item: { ...deleted, n: 0 } } },
      { Put: { Item: { ...checked, status: 'open' } } },
    ]);

    // Act
    await transact([
      { Put: { Item: { ...put, n: 1 }, ConditionExpression: 'attribute_not_exists(PK)' } },
      {
        Update: {
          Key: updated,
          UpdateExpression:
            'SET n = n + :three, tags = list_append(tags, :more), fresh = if_not_exists(fresh, :x)',
          ConditionExpression: 'n = :two',
          ExpressionAttributeValues: { ':three': 3, ':two': 2, ':more': ['b'], ':x': 'x' },
        },
      },
      { Delete: { Key: deleted, ConditionExpression: 'attribute_exists(PK)' } },
      {
        ConditionCheck: {
          Key: checked,
          ConditionExpression: '#status = :open',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':open': 'open' },
        },
      },
    ]);

    // Assess: 2 + 3 = 5; ['a'] + ['b']; the checked item is untouched.
    expect(await read(put)).toEqual({ ...put, n: 1 });
    expect(await read(updated)).toEqual({ ...updated, n: 5, tags: ['a', 'b'], fresh: 'x' });
    expect(await read(deleted)).toBeNull();
    expect(await read(checked)).toEqual({ ...checked, status: 'open' });
  });

  it('an Update of an item that does not exist creates it from its key', async () => {
    // Prepare
    const [counter] = keysOf('counter');

    // Act
    await transact([
      {
        Update: {
          Key: counter,
          UpdateExpression: 'SET n = if_not_exists(n, :zero) + :one',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
    ]);

    // Assess
    expect(await read(counter)).toEqual({ ...counter, n: 1 });
  });

  it('one failing condition cancels every write, with one reason per item in request order', async () => {
    // Prepare
    const [fresh, counter, doomed, taken] = keysOf('fresh', 'counter', 'doomed', 'taken');
    await transact([
      { Put: { Item: { ...counter, n: 1 } } },
      { Put: { Item: { ...doomed, n: 1 } } },
      { Put: { Item: { ...taken, owner: 'someone' } } },
    ]);

    // Act
    const error = await cancellation([
      { Put: { Item: { ...fresh, n: 1 } } },
      {
        Update: {
          Key: counter,
          UpdateExpression: 'SET n = n + :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      { Delete: { Key: doomed } },
      {
        Put: {
          Item: { ...taken, owner: 'me' },
          ConditionExpression: 'attribute_not_exists(PK)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);

    // Assess
    expect(error.CancellationReasons?.map((reason) => reason.Code)).toEqual([
      'None',
      'None',
      'None',
      'ConditionalCheckFailed',
    ]);
    expect(error.CancellationReasons?.[3]?.Item).toEqual({
      PK: { S: taken.PK },
      SK: { S: taken.SK },
      owner: { S: 'someone' },
    });
    expect(await read(fresh)).toBeNull();
    expect(await read(counter)).toEqual({ ...counter, n: 1 });
    expect(await read(doomed)).toEqual({ ...doomed, n: 1 });
    expect(await read(taken)).toEqual({ ...taken, owner: 'someone' });
  });

  it('names every failed condition, not only the first', async () => {
    // Prepare
    const [first, second, third] = keysOf('first', 'second', 'third');
    await transact([{ Put: { Item: { ...second, n: 1 } } }]);

    // Act
    const error = await cancellation([
      { ConditionCheck: { Key: first, ConditionExpression: 'attribute_exists(PK)' } },
      { Put: { Item: { ...second, n: 2 }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Put: { Item: { ...third, n: 3 } } },
    ]);

    // Assess
    expect(error.CancellationReasons?.map((reason) => reason.Code)).toEqual([
      'ConditionalCheckFailed',
      'ConditionalCheckFailed',
      'None',
    ]);
    expect(await read(third)).toBeNull();
  });

  it('keeps GSI1 consistent: a moved index key leaves its old partition, a cancelled move touches neither', async () => {
    // Prepare
    const [member, guard] = keysOf('member', 'guard');
    const [from, to, elsewhere] = [`USER#from-${run}`, `USER#to-${run}`, `USER#elsewhere-${run}`];
    await transact([{ Put: { Item: { ...member, GSI1PK: from, GSI1SK: 'ORG#1', role: 'user' } } }]);

    // Act
    await transact([
      {
        Update: {
          Key: member,
          UpdateExpression: 'SET GSI1PK = :to, #role = :admin',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':to': to, ':admin': 'admin' },
        },
      },
    ]);
    await cancellation([
      {
        Update: {
          Key: member,
          UpdateExpression: 'SET GSI1PK = :elsewhere',
          ExpressionAttributeValues: { ':elsewhere': elsewhere },
        },
      },
      { ConditionCheck: { Key: guard, ConditionExpression: 'attribute_exists(PK)' } },
    ]);

    // Assess
    expect(await gsi1(from)).toEqual([]);
    expect(await gsi1(to)).toEqual([{ ...member, GSI1PK: to, GSI1SK: 'ORG#1', role: 'admin' }]);
    expect(await gsi1(elsewhere)).toEqual([]);
  });

  it('of concurrent transactions claiming one item, exactly one writes, and only its own items', async () => {
    // Prepare
    const [claim] = keysOf('claim');
    const contenders = Array.from({ length: 20 }, (_, index) => `contender-${index}`);

    // Act: each claims the item and, in the same transaction, writes its own receipt.
    const outcomes = await Promise.allSettled(
      contenders.map((name) =>
        transact([
          {
            Put: { Item: { ...claim, holder: name }, ConditionExpression: 'attribute_not_exists(PK)' },
          },
          { Put: { Item: { PK: claim.PK, SK: `receipt-${name}` } } },
        ]),
      ),
    );

    // Assess
    const winners = contenders.filter((_, index) => outcomes[index]?.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    expect(await read(claim)).toMatchObject({ holder: winners[0] });
    const receipts = await Promise.all(
      contenders.map((name) => read({ PK: claim.PK, SK: `receipt-${name}` })),
    );
    expect(receipts.filter((receipt) => receipt !== null)).toEqual([
      { PK: claim.PK, SK: `receipt-${winners[0]}` },
    ]);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(TransactionCanceledException);
    }
  });

  it('concurrent transactions over overlapping items, in any order, lose no update and never deadlock', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 }), {
          minLength: 2,
          maxLength: 12,
        }),
        async (transactions) => {
          // Prepare
          const counters = keysOf('c0', 'c1', 'c2', 'c3', 'c4');

          // Act: every transaction adds 1 to its counters, listed in its own order.
          await Promise.all(
            transactions.map((indexes) =>
              transact(
                indexes.map((index) => ({
                  Update: {
                    Key: counters[index],
                    UpdateExpression: 'SET n = if_not_exists(n, :zero) + :one',
                    ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
                  },
                })),
              ),
            ),
          );

          // Assess: each counter counts the transactions that named it (independent tally).
          const values = await Promise.all(counters.map(read));
          counters.forEach((_, index) => {
            const expected = transactions.filter((indexes) => indexes.includes(index)).length;
            expect((values[index]?.n as number | undefined) ?? 0).toBe(expected);
          });
        },
      ),
      { numRuns: 30 },
    );
  });

  it('refuses two operations on one item and more than 100 items, writing nothing', async () => {
    // Prepare
    const [item] = keysOf('item');
    const many = keysOf(...Array.from({ length: 101 }, (_, index) => `many-${index}`));

    // Act
    const twice = await transact([
      { Put: { Item: { ...item, n: 1 } } },
      { ConditionCheck: { Key: item, ConditionExpression: 'attribute_not_exists(PK)' } },
    ]).catch((error: unknown) => error);
    const tooMany = await transact(many.map((key) => ({ Put: { Item: key } }))).catch(
      (error: unknown) => error,
    );

    // Assess
    expect(twice).toMatchObject({
      name: 'ValidationException',
      message: 'Transaction request cannot include multiple operations on one item',
    });
    expect(tooMany).toMatchObject({ name: 'ValidationException' });
    expect((tooMany as Error).message).toContain('Member must have length less than or equal to 100');
    expect(await read(item)).toBeNull();
    expect(await Promise.all(many.map(read))).toEqual(many.map(() => null));
  });
});
