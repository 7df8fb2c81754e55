import { catalogRepository, orgRepository } from '../store/store';
import { createFunctionContext } from './app-context';
import { createAwsTable, readAwsConfig } from './aws';
import { onFirstUse } from './function-context';
import { portfolioReads } from './portfolio-reads';

const repositories = { orgs: orgRepository, catalog: catalogRepository };

/**
 * The commitments-chart function on AWS: its repositories on the service's table, built on the
 * first invocation. It only reads: of the usage, the commitments and the purchases it builds the
 * reads the chart names (shared/app/commitments-chart.ts), not the repositories with their writes.
 */
export const awsCommitmentsChartContext = onFirstUse(() => {
  const table = createAwsTable(readAwsConfig(process.env));
  const context = createFunctionContext(table, repositories);
  return {
    ...context,
    repos: { ...context.repos, ...portfolioReads(table) },
  };
});
