import { withPlanContentCache } from '../store/caching/plan-content-cache';
import { createCommitmentReader } from '../store/commitment-reads';
import { createPlanReader } from '../store/plan-reads';
import { createPurchasesByOrgReader } from '../store/purchase-reads';
import { catalogRepository, orgRepository } from '../store/store';
import { createUsageSeriesReader } from '../store/usage-series-reads';
import { createUsageStateReader } from '../store/usage-states';
import { createFunctionContext } from './app-context';
import { createAwsTable, readAwsConfig } from './aws';
import { onFirstUse } from './function-context';

const repositories = { orgs: orgRepository, catalog: catalogRepository };

/**
 * The plan-coverage function on AWS: its repositories on the service's table, built on the first
 * invocation. It only reads: of the plans, the usage, the commitments and the purchases it builds
 * the reads its use cases name (shared/app/plan-inputs.ts, plan-access.ts), not the repositories
 * with their writes.
 */
export const awsPlanCoverageContext = onFirstUse(() => {
  const table = createAwsTable(readAwsConfig(process.env));
  const context = createFunctionContext(table, repositories);
  return {
    ...context,
    repos: {
      ...context.repos,
      // Behind the same cache as the plan repository elsewhere (docs/architecture.md, Caches).
      plans: withPlanContentCache(createPlanReader(table), context.clock),
      usage: { ...createUsageSeriesReader(table), ...createUsageStateReader(table) },
      commitments: createCommitmentReader(table),
      purchases: createPurchasesByOrgReader(table),
    },
  };
});
