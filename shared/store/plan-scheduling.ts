import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PlanScheduling, SchedulingCondition } from '../app/ports';
import { normalizeEmail } from '../domain/orgs';
import { appliedComputationKey, type ItemKey, membershipKey, planKey, userKey } from './keys';
import { membershipAttributes } from './memberships';
import type { StoredItem, TableClient } from './table-client';
import { toUserItem } from './users';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Schedules an applied plan in one DynamoDB transaction (docs/data-model.md, Transactions): the
 * plan's status change, a check that the computation's claim is still the plan's as the applying
 * user, and for #13 a new member with their user. Answers the conditions that failed (none: it
 * was written); a cancelled transaction wrote nothing.
 */
export async function schedulePlan(
  table: TableClient,
  scheduling: PlanScheduling,
): Promise<readonly SchedulingCondition[]> {
  const conditions: (SchedulingCondition | null)[] = [];
  const items: TransactItem[] = [];
  const add = (condition: SchedulingCondition | null, item: TransactItem) => {
    conditions.push(condition);
    items.push(item);
  };
  add('plan_status', statusChange(table, scheduling));
  add('computation_claim', claimCheck(table, scheduling));
  if (scheduling.newMember) {
    const member = scheduling.newMember;
    const email = normalizeEmail(member.email);
    add('not_a_member', {
      Put: {
        TableName: table.tableName,
        Item: { ...membershipAttributes(member), ...membershipKey(member.orgId, email), version: 1 },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
    // The user may exist already (a member of another org): only what is missing is written.
    add(
      null,
      ifAbsentAttributes(
        table,
        userKey(email),
        toUserItem({ email, name: null, createdAt: member.createdAt }),
      ),
    );
  }
  try {
    await table.client.send(new TransactWriteCommand({ TransactItems: items }));
    return [];
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const failed = conditions.filter(
      (condition, index): condition is SchedulingCondition =>
        condition !== null && reasons[index]?.Code === 'ConditionalCheckFailed',
    );
    // Cancelled for another reason (a conflicting transaction, throttling): not an answer.
    if (failed.length === 0) throw error;
    return failed;
  }
}

function statusChange(table: TableClient, scheduling: PlanScheduling): TransactItem {
  const from = scheduling.from.map((_, index) => `:from${index}`);
  return {
    Update: {
      TableName: table.tableName,
      Key: planKey(scheduling.orgId, scheduling.provider, scheduling.planId),
      UpdateExpression:
        'SET #status = :scheduled, lastModified = :at, appliedBy = :by, appliedAt = :at ADD #version :one',
      ConditionExpression: `attribute_exists(PK) AND #status IN (${from.join(', ')})`,
      ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
      ExpressionAttributeValues: {
        ':scheduled': 'scheduled',
        ':at': scheduling.at,
        ':by': scheduling.appliedBy,
        ':one': 1,
        ...Object.fromEntries(scheduling.from.map((status, index) => [`:from${index}`, status])),
      },
    },
  };
}

function claimCheck(table: TableClient, scheduling: PlanScheduling): TransactItem {
  return {
    ConditionCheck: {
      TableName: table.tableName,
      Key: appliedComputationKey(scheduling.orgId, scheduling.provider, scheduling.usageVersion),
      ConditionExpression: 'planId = :plan AND appliedBy = :by',
      ExpressionAttributeValues: { ':plan': scheduling.planId, ':by': scheduling.appliedBy },
    },
  };
}

/** Writes each defined attribute the item does not have yet, creating it if absent. */
function ifAbsentAttributes(table: TableClient, key: ItemKey, item: StoredItem): TransactItem {
  const entries = Object.entries(item).filter(([, value]) => value !== undefined);
  return {
    Update: {
      TableName: table.tableName,
      Key: key,
      UpdateExpression: `SET ${entries.map((_, index) => `#a${index} = if_not_exists(#a${index}, :a${index})`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#a${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:a${index}`, value])),
    },
  };
}
