import { Logger } from '@aws-lambda-powertools/logger';
import { BCMDataExportsClient, GetExportCommand, ListExportsCommand } from '@aws-sdk/client-bcm-data-exports';
import { CostExplorerClient, GetCostAndUsageCommand } from '@aws-sdk/client-cost-explorer';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeReservedInstancesOfferingsCommand,
  EC2Client,
  PurchaseReservedInstancesOfferingCommand,
} from '@aws-sdk/client-ec2';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The floor of onboarding-aws-verify's own SDK clients: the plain floor (the DynamoDB document
 * client and the Powertools logger) plus the assumed-role provider and exactly the clients and
 * commands the AWS checks send (shared/cloud/verifiers/aws-sdk-probe.ts), and no code of ours.
 * What the function carries beyond it is ours.
 */
const logger = new Logger();
const table = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function handler(event: { readonly id: string; readonly role: string }): Promise<unknown> {
  const { Item } = await table.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: event.id, SK: event.id } }),
  );
  const credentials = fromTemporaryCredentials({ params: { RoleArn: event.role, RoleSessionName: 'floor' } });
  const exports = new BCMDataExportsClient({ credentials });
  const listed = await exports.send(new ListExportsCommand({}));
  await exports.send(new GetExportCommand({ ExportArn: listed.Exports?.[0]?.ExportArn }));
  await new S3Client({ credentials }).send(new ListObjectsV2Command({ Bucket: event.id }));
  await new CostExplorerClient({ credentials }).send(
    new GetCostAndUsageCommand({
      TimePeriod: { Start: event.id, End: event.id },
      Granularity: 'DAILY',
      Metrics: ['UnblendedCost'],
    }),
  );
  const ec2 = new EC2Client({ credentials });
  await ec2.send(new DescribeReservedInstancesOfferingsCommand({ InstanceType: 't3.micro' }));
  await ec2.send(
    new PurchaseReservedInstancesOfferingCommand({ ReservedInstancesOfferingId: event.id, InstanceCount: 1 }),
  );
  logger.info('checked', { found: Item !== undefined });
  return Item;
}
