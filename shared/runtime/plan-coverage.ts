import { withPlanContentCache } from '../store/caching/plan-content-cache';
import { createPlanReader } from '../store/plan-reads';
import { catalogRepository, orgRepository } from '../store/store';
import { createFunctionContext } from './app-context';
import { createAwsTable, readAwsConfig } from './aws';
import { onFirstUse } from './function-context';
import { portfolioReads } from './portfolio-reads';

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
      ...portfolioReads(table),
    },
  };
});
