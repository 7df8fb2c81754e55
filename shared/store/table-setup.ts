import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableDefinition } from './table';

/** CreateTable input for the single table, built from the definition CDK also deploys. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const { partitionKey, sortKey, globalIndexes } = tableDefinition;
  const keyAttributes = [
    partitionKey,
    sortKey,
    ...globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: globalIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}

/**
 * Creates the table unless it exists and waits until it is active. For the local runtime and
 * tests; on AWS the CDK stack owns the table.
 */
export async function createTableIfMissing(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const created = !(await tableExists(client, tableName)) && (await createTable(client, tableName));
  await waitUntilTableExists(
    { client, maxWaitTime: 60, minDelay: 0.1, maxDelay: 2 },
    { TableName: tableName },
  );
  if (created) await enableTimeToLive(client, tableName);
}

/** False when another process (the local server and the admin CLI share one engine) won the race. */
async function createTable(client: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    return true;
  } catch (error) {
    if (error instanceof ResourceInUseException) return false;
    throw error;
  }
}

async function tableExists(client: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

/** dynalite has no UpdateTimeToLive; there expired records simply stay (readers check expiry). */
async function enableTimeToLive(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'UnknownOperationException') throw error;
  }
}
