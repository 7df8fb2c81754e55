import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ItemKey } from './keys';

/** What every repository is built from: the process's DynamoDB clients and the table's name. */
export interface TableClient {
  /** Writes, queries and batches: the document client (dynamo-client.ts). */
  readonly client: DynamoDBDocumentClient;
  /** Single-item reads: the point-read client (dynamo-client.ts), the request path's hot call. */
  readonly pointReads: DynamoDBClient;
  readonly tableName: string;
}

/** A stored item as the document client returns it; repositories map it to domain objects. */
export type StoredItem = Record<string, unknown>;

/**
 * Reads one item with a strongly consistent read; null when there is none. The item comes back as
 * the document client would return it (numbers as numbers, sets as sets): keys are plain strings,
 * so they need no marshalling options.
 */
export async function getItem(table: TableClient, key: ItemKey): Promise<StoredItem | null> {
  const { Item } = await table.pointReads.send(
    new GetItemCommand({
      TableName: table.tableName,
      Key: { PK: { S: key.PK }, SK: { S: key.SK } },
      ConsistentRead: true,
    }),
  );
  return Item ? unmarshall(Item, { wrapNumbers: false }) : null;
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
