import type { AwsOfferFile } from './aws-offer-file';
import type { SavingsPlanFile } from './aws-savings-plan-file';
import type { AzureRegionPrices } from './azure-retail-prices';
import type { RegionPriceList } from './price-list';

/**
 * One AWS region's price list from what its files said: the EC2 and RDS offer files and the
 * Savings Plans file (each optional but the EC2 one: a region without EC2 prices is not a region
 * the plans can use).
 */
export function awsRegionPriceList(
  region: string,
  ec2: AwsOfferFile,
  rds: AwsOfferFile | undefined,
  savingsPlans: SavingsPlanFile | undefined,
): RegionPriceList {
  const files = [ec2, ...(rds ? [rds] : [])];
  const published: Record<string, string> = {};
  for (const file of files) published[file.metadata.offerCode] = file.metadata.publicationDate;
  if (savingsPlans) published.AWSComputeSavingsPlan = savingsPlans.publicationDate;
  const versions = [
    ...files.map((file) => `${file.metadata.offerCode} ${file.metadata.version}`),
    ...(savingsPlans ? [`AWSComputeSavingsPlan ${savingsPlans.version}`] : []),
  ];
  return {
    provider: 'aws',
    region,
    source: `AWS Price List (${versions.join(', ')})`,
    published,
    // The usage type and operation only served to join the Savings Plans rates: not stored.
    instances: files.flatMap((file) =>
      file.instances.map(({ usageType: _usageType, operation: _operation, ...instance }) => instance),
    ),
    reservations: files.flatMap((file) => file.reservations),
    spendRates: savingsPlans?.rates ?? [],
  };
}

export function azureRegionPriceList(region: string, prices: AzureRegionPrices): RegionPriceList {
  return {
    provider: 'azure',
    region,
    source: `Azure Retail Prices API (effective ${prices.effectiveDate.slice(0, 10)})`,
    published: { 'retail-prices': prices.effectiveDate },
    instances: prices.instances,
    reservations: prices.reservations,
    spendRates: prices.spendRates,
  };
}
