import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import { type CatalogRefreshAnswer, refreshCatalog } from '../../shared/app/catalog-refresh';
import type { ContextWith } from '../../shared/app/ports';
import type { PriceListFiles } from '../../shared/app/ports/catalog';
import { CATALOG_REFRESH_KEPT_METRIC, METRICS_NAMESPACE } from './refresh-metric';

/** What the deployed refresh runs with: the stores it writes, the price lists and the regions to read. */
export interface CatalogRefreshDependencies {
  readonly ctx: ContextWith<'catalog' | 'orgs' | 'usage'>;
  /** The providers' public endpoints (shared/cloud/prices/price-list-files.ts). */
  readonly priceLists: PriceListFiles;
  /** The regions to read, AWS's and Azure's names together. */
  readonly regions: readonly string[];
}

/**
 * The scheduled catalog refresh (docs/catalog.md, Deployed refresh): the `refreshCatalog` use case
 * of `admin refresh-catalog --live`, over both providers' price lists. A suspicious or unreadable
 * list keeps the last good catalog: the run succeeds, logs why at WARN and sets the
 * `CatalogRefreshKeptLastGood` metric to 1, which an alarm watches; an error thrown (the store
 * unreachable, the time out) fails the invocation, which Lambda tries again and then sends to
 * the function's dead-letter queue.
 */
export function createCatalogRefreshHandler(dependencies: () => CatalogRefreshDependencies) {
  const logger = new Logger();
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE });

  return middy(async (): Promise<CatalogRefreshAnswer> => {
    const { ctx, priceLists, regions } = dependencies();
    const answer = await refreshCatalog(ctx, priceLists, { providers: ['aws', 'azure'], regions }, (step) =>
      logger.info('catalog refresh progress', { step }),
    );
    metrics.addMetric(CATALOG_REFRESH_KEPT_METRIC, MetricUnit.Count, answer.outcome === 'kept' ? 1 : 0);
    const { outcome, reasons, catalog_version, origin } = answer;
    if (outcome === 'kept') {
      logger.warn('catalog refresh kept the last good catalog', { reasons, catalog_version, origin });
    } else {
      const { offers, instance_types, prices_moved, plan_inputs_raised } = answer;
      logger.info('catalog refreshed', {
        catalog_version,
        origin,
        offers,
        instance_types,
        prices_moved,
        plan_inputs_raised,
      });
    }
    return answer;
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
}
