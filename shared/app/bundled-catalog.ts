import type { Catalog } from '../domain/catalog/catalog';

/**
 * The catalog bundled with the service, for use cases that price usage or buy offers. Its module
 * (the packed offer data and the code that assembles it) is imported here on first use rather than
 * when a function starts: most requests read stored plans and never need it, so a Lambda
 * function pays for it only on the request that first computes a plan or a chart.
 * esbuild keeps the module inside the function's one bundle; the import only defers running it.
 */
export async function bundledCatalog(): Promise<Catalog> {
  const { loadCatalog } = await import('../domain/catalog/catalog');
  return loadCatalog();
}
