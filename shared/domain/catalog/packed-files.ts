/**
 * The data files `npm run catalog:pack` packs into ./data/packed-catalog.ts, and how they make
 * the catalog's data: apart from ./packed-data.ts, so that the pack script can name the files
 * without loading the packed copy it is about to replace.
 */

/** The files packed, in this order. */
export const packedCatalogFileNames = [
  'aws-ec2-reserved-instances.json',
  'aws-rds-reserved-instances.json',
  'azure-vm-reservations.json',
  'gcp-committed-use-discounts.json',
  'aws-savings-plans.json',
  'azure-savings-plan.json',
  'guaranteed-offers.json',
  'azure-instance-size-flexibility.json',
] as const;

export type PackedCatalogFileName = (typeof packedCatalogFileNames)[number];

/** Raw catalog data, each file's parsed JSON under its file name (the name appears in errors). */
export interface CatalogData {
  readonly reservations: Readonly<Record<string, unknown>>;
  readonly savingsPlans: Readonly<Record<string, unknown>>;
  readonly guaranteed: Readonly<Record<string, unknown>>;
}

/** The catalog data of the packed files (or of the JSON files they are packed from), by kind. */
export function catalogDataOf(files: Readonly<Record<PackedCatalogFileName, unknown>>): CatalogData {
  return {
    reservations: {
      'aws-ec2-reserved-instances.json': files['aws-ec2-reserved-instances.json'],
      'aws-rds-reserved-instances.json': files['aws-rds-reserved-instances.json'],
      'azure-vm-reservations.json': files['azure-vm-reservations.json'],
      'gcp-committed-use-discounts.json': files['gcp-committed-use-discounts.json'],
    },
    savingsPlans: {
      'aws-savings-plans.json': files['aws-savings-plans.json'],
      'azure-savings-plan.json': files['azure-savings-plan.json'],
    },
    guaranteed: { 'guaranteed-offers.json': files['guaranteed-offers.json'] },
  };
}
