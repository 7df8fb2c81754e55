/**
 * The single table's definition (docs/data-model.md): one constant read by the CDK stateful stack and by
 * the local runtime's CreateTable, so the deployed table and the local one have the same keys.
 */
export const tableDefinition = {
  partitionKey: 'PK',
  sortKey: 'SK',
  globalIndexes: [{ indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' }],
  /** Attribute holding an epoch-seconds expiry (idempotency records, OAuth codes). */
  timeToLiveAttribute: 'expiresAt',
} as const;

export type TableDefinition = typeof tableDefinition;
