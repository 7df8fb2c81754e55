/** The bundled catalog data is malformed or inconsistent; the message names the file and field. */
export class CatalogDataError extends Error {
  override readonly name = 'CatalogDataError';
}

/** T: hours billed by a provider term. */
export const PROVIDER_TERM_HOURS = { one_year: 8760, three_year: 26280 } as const;

export type ProviderTerm = keyof typeof PROVIDER_TERM_HOURS;
