import * as z from 'zod/mini';
import { type AzureFlexibilityFile, azureFlexibilityFileSchema } from './azure-flexibility-file';
import { assembleCatalog, type Catalog, type ValidCatalogData } from './catalog';
import { guaranteedOfferFileSchema, reservationFileSchema, savingsPlanFileSchema } from './catalog-schema';
import { CatalogDataError } from './catalog-terms';
import type { CatalogData } from './packed-files';

/**
 * Validates catalog data file by file against its schema, then builds the catalog; throws
 * CatalogDataError naming the file and the bad field. `npm run catalog:pack` runs it before it
 * packs the files and the unit tests on the packed copy, so the functions need not: they build
 * the bundled catalog from the packed data as it is (`loadCatalog`).
 */
export function buildCatalog(data: CatalogData): Catalog {
  return assembleCatalog(validateCatalogData(data));
}

export function validateCatalogData(data: CatalogData): ValidCatalogData {
  return {
    reservations: parseFiles(reservationFileSchema, data.reservations),
    savingsPlans: parseFiles(savingsPlanFileSchema, data.savingsPlans),
    guaranteed: parseFiles(guaranteedOfferFileSchema, data.guaranteed),
  };
}

/** Validates Azure's instance size flexibility table (instance-sizes.ts reads it as it is). */
export function validateAzureFlexibility(name: string, raw: unknown): AzureFlexibilityFile {
  return parseFile(azureFlexibilityFileSchema, name, raw);
}

function parseFiles<T>(
  schema: z.ZodMiniType<T>,
  files: Readonly<Record<string, unknown>>,
): Record<string, T> {
  return Object.fromEntries(Object.entries(files).map(([name, raw]) => [name, parseFile(schema, name, raw)]));
}

function parseFile<T>(schema: z.ZodMiniType<T>, name: string, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw new CatalogDataError(`catalog data ${name} is invalid:\n${z.prettifyError(result.error)}`, {
      cause: result.error,
    });
  }
  return result.data;
}
