import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The floor of the cold-start benchmark: the least a function of this service can be, a handler
 * with only the DynamoDB document client and the Powertools logger, created at load as ours are.
 */
const logger = new Logger();
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function handler(event: { readonly id: string }): Promise<unknown> {
  const { Item } = await client.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: event.id, SK: event.id } }),
  );
  logger.info('read', { found: Item !== undefined });
  return Item;
}
