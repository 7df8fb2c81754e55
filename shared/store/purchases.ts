import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PurchaseOutcome, PurchaseRepository, PurchasingPlan } from '../app/ports';
import type { Provider } from '../domain/engine';
import type { PurchaseClaim, PurchaseRecord } from '../domain/purchases/purchase-record';
import { type ConditionalUpdate, putIfAbsent, updateReturningIf } from './conditional-writes';
import {
  planPartition,
  purchaseByOrgIndexKey,
  purchaseKey,
  purchasePrefix,
  purchasingPlanKey,
  purchasingPlansPartition,
} from './keys';
import { listPurchasesByOrg, toPurchaseRecord } from './purchase-reads';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/**
 * Purchase records (one per applied line item, under its plan's partition) and the markers of
 * plans whose purchases are under way (docs/data-model.md). Every state change is one conditional
 * write on the record's expected status (docs/purchases.md): two processors can never both hold a claim,
 * and a completed purchase can never be claimed again.
 */
export function createPurchaseRepository(table: TableClient): PurchaseRepository {
  async function read(planId: string, lineItemId: string): Promise<PurchaseRecord | null> {
    const item = await getItem(table, purchaseKey(planId, lineItemId));
    return item ? toPurchaseRecord(item) : null;
  }

  /** Updates the record when `condition` holds; answers the record as stored after the write, or null. */
  /** Updates the record when `condition` holds; answers the record as stored after the write, or null. */
  async function transition(
    record: Pick<PurchaseRecord, 'planId' | 'lineItemId'>,
    update: Omit<ConditionalUpdate, 'key'>,
  ): Promise<PurchaseRecord | null> {
    const item = await updateReturningIf(table, {
      ...update,
      key: purchaseKey(record.planId, record.lineItemId),
      names: { '#status': 'status', ...update.names },
    });
    return item ? toPurchaseRecord(item) : null;
  }

  return {
    async createRecords(records) {
      // Independent single-item writes: sent together, so an apply waits for one round trip, not one per line.
      return Promise.all(
        records.map(async (record) => {
          const existing = await putIfAbsent(
            table,
            purchaseKey(record.planId, record.lineItemId),
            toItem(record),
          );
          return existing ? toPurchaseRecord(existing) : record;
        }),
      );
    },

    get: read,

    async listByPlan(planId) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :plan AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':plan': planPartition(planId), ':prefix': purchasePrefix },
        ConsistentRead: true,
      });
      return items.map(toPurchaseRecord);
    },

    listByOrg: (orgId) => listPurchasesByOrg(table, orgId),

    claim(record, claim: PurchaseClaim) {
      return transition(record, {
        expression:
          'SET #status = :purchasing, claim = :claim, updatedAt = :at, ' +
          'firstClaimedAt = if_not_exists(firstClaimedAt, :at)',
        adds: ['attempts :one'],
        condition: '#status = :queued OR (#status = :purchasing AND claim.expiresAt < :at)',
        values: {
          ':purchasing': 'purchasing',
          ':queued': 'queued',
          ':claim': { ...claim },
          ':at': claim.claimedAt,
        },
      });
    },

    finish(record, attemptId, outcome: PurchaseOutcome, at) {
      if (outcome.status === 'completed') {
        // What the provider answers for the line item's client token is the truth, whichever
        // attempt asked: a slower attempt whose claim expired still records it.
        return transition(record, {
          expression:
            'SET #status = :completed, providerIds = :ids, upfrontCost = :upfront, recurringCost = :recurring, ' +
            'providerQuantity = :quantity, completedAt = :at, updatedAt = :at, #error = :null, errorCode = :null ' +
            'REMOVE claim',
          condition: '#status = :purchasing',
          names: { '#error': 'error' },
          values: {
            ':completed': 'completed',
            ':purchasing': 'purchasing',
            ':ids': [...outcome.providerIds],
            ':upfront': outcome.upfrontCost,
            ':recurring': outcome.recurringCost,
            ':quantity': outcome.providerQuantity,
            ':at': at,
            ':null': null,
          },
        });
      }
      return transition(record, {
        expression: 'SET #status = :status, #error = :error, errorCode = :code, updatedAt = :at REMOVE claim',
        condition: '#status = :purchasing AND claim.attemptId = :attempt',
        names: { '#error': 'error' },
        values: {
          ':status': outcome.status,
          ':purchasing': 'purchasing',
          ':attempt': attemptId,
          ':error': outcome.reason,
          ':code': outcome.code,
          ':at': at,
        },
      });
    },

    refuse(record, reason, code, at) {
      return transition(record, {
        expression: 'SET #status = :failed, #error = :error, errorCode = :code, updatedAt = :at',
        condition: '#status = :queued AND attempts = :attempts',
        names: { '#error': 'error' },
        values: {
          ':failed': 'failed',
          ':queued': 'queued',
          ':attempts': record.attempts,
          ':error': reason,
          ':code': code,
          ':at': at,
        },
      });
    },

    requeue(record, at, limitPrice) {
      return transition(record, {
        expression: `SET #status = :queued, updatedAt = :at${limitPrice ? ', limitPrice = :limit' : ''}`,
        condition: '#status = :failed',
        values: {
          ':queued': 'queued',
          ':failed': 'failed',
          ':at': at,
          ...(limitPrice ? { ':limit': { ...limitPrice } } : {}),
        },
      });
    },

    completeByHand(record, completion, at) {
      return transition(record, {
        expression:
          'SET #status = :completed, #reference = :reference, completedAt = :at, updatedAt = :at, ' +
          'upfrontCost = :upfront, recurringCost = :recurring, providerQuantity = :quantity, ' +
          'providerIds = :ids',
        condition: '#status = :manual',
        names: { '#reference': 'reference' },
        values: {
          ':completed': 'completed',
          ':manual': 'manual',
          ':reference': completion.reference,
          ':ids': [completion.reference],
          ':upfront': completion.upfrontCost,
          ':recurring': completion.recurringCost,
          ':quantity': completion.providerQuantity,
          ':at': at,
        },
      });
    },

    async markPurchasing(plan: PurchasingPlan) {
      await table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: purchasingPlanKey(plan.planId),
          UpdateExpression:
            'SET #type = :type, orgId = :org, provider = :provider, since = if_not_exists(since, :at)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': 'purchasing_plan',
            ':org': plan.orgId,
            ':provider': plan.provider,
            ':at': plan.since,
          },
        }),
      );
    },

    async unmarkPurchasing(planId) {
      await table.client.send(
        new DeleteCommand({ TableName: table.tableName, Key: purchasingPlanKey(planId) }),
      );
    },

    async purchasingPlans() {
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :plans',
        ExpressionAttributeValues: { ':plans': purchasingPlansPartition },
        ConsistentRead: true,
      });
      return items.map((item) => ({
        planId: item.SK as string,
        orgId: item.orgId as string,
        provider: item.provider as Provider,
        since: item.since as string,
      }));
    },
  };
}

function toItem(record: PurchaseRecord): StoredItem {
  const item: StoredItem = {
    ...purchaseByOrgIndexKey(record.orgId, record.createdAt, record.planId, record.lineItemId),
    type: 'purchase',
    version: 1,
    ...record,
    limitPrice: { ...record.limitPrice },
    providerIds: [...record.providerIds],
  };
  if (record.claim) item.claim = { ...record.claim };
  // A null is an absent attribute: `if_not_exists(firstClaimedAt, ...)` treats a stored NULL as set.
  for (const [name, value] of Object.entries(item)) if (value === null) delete item[name];
  return item;
}
