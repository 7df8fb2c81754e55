import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './keys';

/** What every repository is built from: the process's document client (dynamo-client.ts) and the table's name. */
export interface TableClient {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
}

/** A stored item as the document client returns it; repositories map it to domain objects. */
export type StoredItem = Record<string, unknown>;

/** Reads one item with a strongly consistent read; null when there is none. */
export async function getItem(table: TableClient, key: ItemKey): Promise<StoredItem | null> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: { PK: key.PK, SK: key.SK }, ConsistentRead: true }),
  );
  return Item ?? null;
}

/** Writes the item at `key`, replacing whatever was there (no condition). */
export async function putItem(table: TableClient, key: ItemKey, item: StoredItem): Promise<void> {
  await table.client.send(new PutCommand({ TableName: table.tableName, Item: { ...item, ...key } }));
}

/** Deletes the item at `key`, if any (no condition). */
export async function deleteItem(table: TableClient, key: ItemKey): Promise<void> {
  await table.client.send(new DeleteCommand({ TableName: table.tableName, Key: key }));
}

/** Runs a query to its last page, answering the items page by page (at most 1 MB each) in key order. */
export async function* queryPages(
  table: TableClient,
  input: Omit<QueryCommandInput, 'TableName'>,
): AsyncGenerator<StoredItem[]> {
  for await (const page of paginateQuery(
    { client: table.client },
    { ...input, TableName: table.tableName },
  )) {
    yield page.Items ?? [];
  }
}

/** Runs a query to its last page and answers every item in key order. */
export async function queryAll(
  table: TableClient,
  input: Omit<QueryCommandInput, 'TableName'>,
): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for await (const page of queryPages(table, input)) items.push(...page);
  return items;
}
