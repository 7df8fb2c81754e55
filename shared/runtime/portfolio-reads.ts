import { createCommitmentReader } from '../store/commitment-reads';
import { createPurchasesByOrgReader } from '../store/purchase-reads';
import type { TableClient } from '../store/table-client';
import { createUsageSeriesReader } from '../store/usage-series-reads';
import { createUsageStateReader } from '../store/usage-states';

/**
 * What a function that only reads an org's portfolio builds of the store: the usage (its series
 * and state), the commitments owned and the purchases made, each as its reads alone, not the
 * repositories with their writes (docs/benchmarks.md, Cold start).
 */
export function portfolioReads(table: TableClient) {
  return {
    usage: { ...createUsageSeriesReader(table), ...createUsageStateReader(table) },
    commitments: createCommitmentReader(table),
    purchases: createPurchasesByOrgReader(table),
  };
}
