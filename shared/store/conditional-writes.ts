import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ConflictError } from '../domain/errors';
import type { ItemKey } from './keys';
import { getItem, type StoredItem, type TableClient } from './table-client';

/**
 * Single-item conditional writes (the one transaction is plan-scheduling.ts). A failed condition asks
 * DynamoDB for the item that failed it (`ALL_OLD`); dynalite ignores that request, so when the
 * exception carries no item the current one is read instead of assumed.
 */

export function isConditionFailure(error: unknown): error is ConditionalCheckFailedException {
  return error instanceof ConditionalCheckFailedException;
}

/**
 * After a write failed, answers the stored item that failed its condition (null when there is
 * none); rethrows any error other than a failed condition.
 */
export async function itemFailingCondition(
  error: unknown,
  readCurrent: () => Promise<StoredItem | null>,
): Promise<StoredItem | null> {
  if (!isConditionFailure(error)) throw error;
  return error.Item ? unmarshall(error.Item) : readCurrent();
}

/** Puts the item unless one with its key exists: answers null when written, else the stored item. */
export async function putIfAbsent(
  table: TableClient,
  key: ItemKey,
  item: StoredItem,
): Promise<StoredItem | null> {
  try {
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...item, ...key },
        ConditionExpression: 'attribute_not_exists(PK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return null;
  } catch (error) {
    const existing = await itemFailingCondition(error, () => getItem(table, key));
    // Deleted between the failed write and the read: a race the caller settles by retrying.
    if (!existing) throw new ConflictError('The item changed while it was being written; retry');
    return existing;
  }
}

/**
 * Creates or replaces the item's attributes (all defined: a null is an absent attribute, which
 * a SET cannot write), counting writes in `version` (1 on creation).
 */
export async function upsert(table: TableClient, key: ItemKey, attributes: StoredItem): Promise<void> {
  const entries = Object.entries(attributes);
  await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: key,
      UpdateExpression: `SET ${entries.map((_, index) => `#a${index} = :a${index}`).join(', ')} ADD #version :one`,
      ExpressionAttributeNames: Object.fromEntries([
        ['#version', 'version'],
        ...entries.map(([name], index) => [`#a${index}`, name]),
      ]),
      ExpressionAttributeValues: Object.fromEntries([
        [':one', 1],
        ...entries.map(([, value], index) => [`:a${index}`, value]),
      ]),
    }),
  );
}

/** A conditional update: the SET/REMOVE part, counters to raise beside `version`, the condition. */
export interface ConditionalUpdate {
  readonly key: ItemKey;
  /** The SET (or REMOVE) part of the update expression. */
  readonly expression: string;
  /** Counters to raise beside `version`, e.g. `usageVersion :one`. */
  readonly adds?: readonly string[];
  readonly condition: string;
  readonly names?: Record<string, string>;
  readonly values: Record<string, unknown>;
}

/**
 * Updates the item if `condition` holds, counting writes in `version`: answers the item as stored
 * after the write, or null when the condition failed (any other error is thrown).
 */
export async function updateReturningIf(
  table: TableClient,
  input: ConditionalUpdate,
): Promise<StoredItem | null> {
  try {
    const { Attributes } = await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: input.key,
        UpdateExpression: `${input.expression} ADD ${[...(input.adds ?? []), '#version :one'].join(', ')}`,
        ConditionExpression: input.condition,
        ExpressionAttributeNames: { '#version': 'version', ...input.names },
        ExpressionAttributeValues: { ':one': 1, ...input.values },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ?? null;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** As `updateReturningIf`, answering only whether it wrote. */
export async function updateIf(table: TableClient, input: ConditionalUpdate): Promise<boolean> {
  return (await updateReturningIf(table, input)) !== null;
}

/** A conditional delete: the item's key and the condition it must meet. */
export interface ConditionalDelete {
  readonly key: ItemKey;
  readonly condition: string;
  readonly names?: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

/**
 * Deletes the item if `condition` holds: answers whether it did (false when the condition failed;
 * any other error is thrown).
 */
export async function deleteIf(table: TableClient, input: ConditionalDelete): Promise<boolean> {
  try {
    await table.client.send(
      new DeleteCommand({
        TableName: table.tableName,
        Key: input.key,
        ConditionExpression: input.condition,
        ...(input.names ? { ExpressionAttributeNames: input.names } : {}),
        ...(input.values ? { ExpressionAttributeValues: input.values } : {}),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
