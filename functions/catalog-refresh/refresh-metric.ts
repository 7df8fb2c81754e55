/**
 * The metric the catalog-refresh function emits once per run and the CDK alarm watches
 * (docs/catalog.md, Deployed refresh): plain constants, so the function's bundle and the stack
 * share them without either loading the other's code.
 */

/** The CloudWatch namespace of the service's own metrics. */
export const METRICS_NAMESPACE = 'CommitmentPlanning';

/** 1 when a refresh kept the last good catalog, 0 when it made a new version current. */
export const CATALOG_REFRESH_KEPT_METRIC = 'CatalogRefreshKeptLastGood';
