import { brotliDecompressSync } from 'node:zlib';
import type { CatalogData } from './catalog';
import { packedCatalog } from './data/packed-catalog';

/**
 * The catalog's data files as the functions ship them: one compressed string instead of the JSON
 * text (about 6 KB against 50 KB of a bundle that Node parses when the function starts),
 * unpacked when the catalog is first built. `npm run catalog:pack` writes it from the JSON files
 * in ./data, which stay the source to edit.
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
] as const;

export type PackedCatalogFileName = (typeof packedCatalogFileNames)[number];

/** Each packed file's parsed JSON by file name. */
export function unpackCatalog(): Readonly<Record<PackedCatalogFileName, unknown>> {
  return JSON.parse(brotliDecompressSync(Buffer.from(packedCatalog, 'base64')).toString('utf8'));
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
