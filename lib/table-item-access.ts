import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { catalogPartition, orgPartitionPrefix } from '../shared/store/keys';
import { tableDefinition } from '../shared/store/table';

/**
 * What the service's functions may do with the table's items (docs/deploy.md, Permissions): each
 * kind of access as the statements a function's role gets, built from the table's definition.
 */

/**
 * What `grantReadWriteData` allows on items, granted on the table and each named index rather
 * than on `<table>/index/*`: no wildcard resource to justify.
 */
const tableItemActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/**
 * What the plan functions do with items (docs/plans-api.md): read orgs, usage and
 * commitments; read, write and delete plans and plan sets. No scan, and only in partitions of
 * orgs (`ORG#...`, usage and commitments included) and plans (`PLAN#...`): never an API key's,
 * a user's or an OAuth item.
 */
const planItemActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;
const planPartitionPatterns = ['ORG#*', 'PLAN#*'] as const;

/** The index the org list, and an org's purchases, are read from (shared/store/orgs.ts, purchase-reads.ts). */
const orgListIndex = 'GSI1';

export interface TableItemAccess {
  /** Every item action on the table and its indexes. */
  all(): PolicyStatement;
  /**
   * The plan functions' actions, only in the partitions of orgs and plans; and a query of the org
   * index in org partitions, where an org's purchases are listed (`ORG#<id>#PURCHASE`): a plan
   * counts the purchases queued and completed, and the chart shows them.
   */
  plans(): PolicyStatement[];
  /**
   * The catalog refresh's (docs/catalog.md, Deployed refresh): read and write the catalog's
   * partitions only (`CATALOG`, `CATALOG#...`), list the orgs (a query of the org index), and
   * raise an org's plan-inputs version (UpdateItem, in `ORG#...` partitions only). No scan, no
   * delete.
   */
  catalogRefresh(): PolicyStatement[];
}

export function tableItemAccess(table: ITable): TableItemAccess {
  const indexArn = (indexName: string) => {
    if (!tableDefinition.globalIndexes.some((index) => index.indexName === indexName)) {
      throw new Error(`the table has no index ${indexName}`);
    }
    return `${table.tableArn}/index/${indexName}`;
  };
  const leadingKeys = (patterns: readonly string[]) => ({
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...patterns] },
  });
  return {
    all: () =>
      new PolicyStatement({
        actions: [...tableItemActions],
        resources: [
          table.tableArn,
          ...tableDefinition.globalIndexes.map((index) => indexArn(index.indexName)),
        ],
      }),
    plans: () => [
      new PolicyStatement({
        actions: [...planItemActions],
        resources: [table.tableArn],
        conditions: leadingKeys(planPartitionPatterns),
      }),
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [indexArn(orgListIndex)],
        conditions: leadingKeys([`${orgPartitionPrefix}*`]),
      }),
    ],
    catalogRefresh: () => [
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:BatchWriteItem'],
        resources: [table.tableArn],
        conditions: leadingKeys([catalogPartition, `${catalogPartition}#*`]),
      }),
      new PolicyStatement({ actions: ['dynamodb:Query'], resources: [indexArn(orgListIndex)] }),
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: leadingKeys([`${orgPartitionPrefix}*`]),
      }),
    ],
  };
}
