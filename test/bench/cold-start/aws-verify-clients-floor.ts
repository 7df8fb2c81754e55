import { BCMDataExportsClient, GetExportCommand, ListExportsCommand } from '@aws-sdk/client-bcm-data-exports';
import { CostExplorerClient, GetCostAndUsageCommand } from '@aws-sdk/client-cost-explorer';
import {
  DescribeReservedInstancesOfferingsCommand,
  EC2Client,
  PurchaseReservedInstancesOfferingCommand,
} from '@aws-sdk/client-ec2';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { handler as plainFloor } from './floor-handler';

/**
 * The floor of onboarding-aws-verify's own SDK clients: the plain floor (floor-handler.ts, which it
 * calls) plus the assumed-role provider and exactly the clients and commands the AWS checks send
 * with their SDK clients (shared/cloud/verifiers/aws-sdk-probe.ts), and no code of ours. What the
 * function carries beyond it is ours, including the legacy CUR and S3 calls it signs and sends
 * without a client.
 */
export async function handler(event: { readonly id: string; readonly role: string }): Promise<unknown> {
  const item = await plainFloor(event);
  const credentials = fromTemporaryCredentials({ params: { RoleArn: event.role, RoleSessionName: 'floor' } });
  const exports = new BCMDataExportsClient({ credentials });
  const listed = await exports.send(new ListExportsCommand({}));
  await exports.send(new GetExportCommand({ ExportArn: listed.Exports?.[0]?.ExportArn }));
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
  return item;
}
