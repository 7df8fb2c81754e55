import * as z from 'zod/mini';

/**
 * Azure's instance size flexibility table (docs/catalog.md): groups named "... Series", sizes and
 * ratios. Apart from the other files' schemas (catalog-schema.ts), which size instances through
 * ../instance-sizes.ts: that module reads this table, so its type must not come from them.
 */
export const azureFlexibilityFileSchema = z.strictObject({
  source: z.string().check(z.minLength(1)),
  groups: z.record(
    z.string().check(z.regex(/ Series\b/)),
    z.record(z.string().check(z.regex(/^Standard_/)), z.number().check(z.positive())),
  ),
});

export type AzureFlexibilityFile = z.infer<typeof azureFlexibilityFileSchema>;
