import {
  CreateTagsCommand,
  DescribeReservedInstancesCommand,
  DescribeReservedInstancesOfferingsCommand,
  EC2Client,
  PurchaseReservedInstancesOfferingCommand,
} from '@aws-sdk/client-ec2';
import {
  DescribeReservedDBInstancesCommand,
  DescribeReservedDBInstancesOfferingsCommand,
  PurchaseReservedDBInstancesOfferingCommand,
  RDSClient,
} from '@aws-sdk/client-rds';
import {
  CreateSavingsPlanCommand,
  DescribeSavingsPlansCommand,
  DescribeSavingsPlansOfferingsCommand,
  SavingsplansClient,
} from '@aws-sdk/client-savingsplans';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { handler as plainFloor } from './floor-handler';

/**
 * The floor of the `marketplace=aws` purchase processor's own SDK clients: the plain floor
 * (floor-handler.ts, which it calls) plus the assumed-role provider and exactly the clients and
 * commands the aws marketplace sends (shared/cloud/marketplace/aws-*.ts), and no code of ours.
 * What the function carries beyond it is ours.
 */
export async function handler(event: { readonly id: string; readonly role: string }): Promise<unknown> {
  const item = await plainFloor(event);
  const credentials = fromTemporaryCredentials({ params: { RoleArn: event.role, RoleSessionName: 'floor' } });
  const ec2 = new EC2Client({ credentials });
  await ec2.send(new DescribeReservedInstancesCommand({}));
  await ec2.send(new DescribeReservedInstancesOfferingsCommand({ InstanceType: 'm5.large' }));
  await ec2.send(
    new PurchaseReservedInstancesOfferingCommand({ ReservedInstancesOfferingId: event.id, InstanceCount: 1 }),
  );
  await ec2.send(new CreateTagsCommand({ Resources: [event.id], Tags: [{ Key: 'k', Value: event.id }] }));
  const rds = new RDSClient({ credentials });
  await rds.send(new DescribeReservedDBInstancesCommand({ ReservedDBInstanceId: event.id }));
  await rds.send(new DescribeReservedDBInstancesOfferingsCommand({ DBInstanceClass: 'db.m5.large' }));
  await rds.send(new PurchaseReservedDBInstancesOfferingCommand({ ReservedDBInstancesOfferingId: event.id }));
  const savingsPlans = new SavingsplansClient({ credentials });
  await savingsPlans.send(new DescribeSavingsPlansCommand({}));
  await savingsPlans.send(new DescribeSavingsPlansOfferingsCommand({}));
  await savingsPlans.send(new CreateSavingsPlanCommand({ savingsPlanOfferingId: event.id, commitment: '1' }));
  return item;
}
