/**
 * The conditional writes every repository builds on, against dynalite: a failed condition is an
 * answer (false, null), never a write, and any other error still reaches the caller.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteIf } from '../../../shared/store/conditional-writes';
import { getItem } from '../../../shared/store/table-client';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startTestTable();
});

afterAll(async () => {
  await table.close();
});

async function putClaim(key: { PK: string; SK: string }, attemptId: string): Promise<void> {
  await table.client.send(
    new PutCommand({ TableName: table.tableName, Item: { ...key, attemptId, status: 'in_flight' } }),
  );
}

const heldBy = (attemptId: string) => ({
  condition: 'attemptId = :attempt AND #status = :inFlight',
  names: { '#status': 'status' },
  values: { ':attempt': attemptId, ':inFlight': 'in_flight' },
});

describe('deleteIf', () => {
  it('deletes the item when the condition holds and answers true', async () => {
    // Prepare
    const key = { PK: 'CLAIM#1', SK: 'CLAIM' };
    await putClaim(key, 'attempt-a');

    // Act
    const deleted = await deleteIf(table, { key, ...heldBy('attempt-a') });

    // Assess
    expect(deleted).toBe(true);
    expect(await getItem(table, key)).toBeNull();
  });

  it('leaves the item as it was when the condition fails and answers false', async () => {
    // Prepare
    const key = { PK: 'CLAIM#2', SK: 'CLAIM' };
    await putClaim(key, 'attempt-b');

    // Act
    const deleted = await deleteIf(table, { key, ...heldBy('attempt-a') });

    // Assess
    expect(deleted).toBe(false);
    expect(await getItem(table, key)).toEqual({ ...key, attemptId: 'attempt-b', status: 'in_flight' });
  });

  it('answers false for an absent item whose condition requires it to exist', async () => {
    // Act
    const deleted = await deleteIf(table, {
      key: { PK: 'CLAIM#absent', SK: 'CLAIM' },
      condition: 'attribute_exists(PK)',
    });

    // Assess
    expect(deleted).toBe(false);
  });

  it('throws any error other than a failed condition', async () => {
    // Act: a value the condition names is missing, which DynamoDB refuses as a bad request
    const deleting = deleteIf(table, {
      key: { PK: 'CLAIM#3', SK: 'CLAIM' },
      condition: 'attemptId = :attempt',
    });

    // Assess
    await expect(deleting).rejects.toThrow(/attempt/);
  });
});
