import { createHash, randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AzureTenantRepository, TenantBindingConflict } from '../app/ports/azure-tenants';
import { putIfAbsent } from './conditional-writes';
import {
  azureIdTokenKey,
  azureSubscriptionBindingKey,
  azureTenantAuditKey,
  azureTenantBindingKey,
  type ItemKey,
} from './keys';
import { getItem, type TableClient } from './table-client';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The Azure tenants' bindings to orgs (docs/data-model.md, docs/onboarding.md): a binding item
 * per tenant and per subscription, written together in one transaction, each on the condition that
 * it is free or already the org's; the operators' rebinds with an audit item; the ID tokens
 * accepted as consents' proofs, each once.
 */
export function createAzureTenantRepository(table: TableClient): AzureTenantRepository {
  const ownerOf = async (key: ItemKey) => ((await getItem(table, key))?.orgId as string | undefined) ?? null;
  return {
    async owners(tenantId, subscriptionId) {
      const [tenant, subscription] = await Promise.all([
        ownerOf(azureTenantBindingKey(tenantId)),
        ownerOf(azureSubscriptionBindingKey(subscriptionId)),
      ]);
      return { tenant, subscription };
    },

    async bind({ orgId, tenantId, subscriptionId, at }) {
      const tenant = tenantId.toLowerCase();
      const subscription = subscriptionId.toLowerCase();
      // Free, or already the org's; `subscriptionIds` (a string set) lists what is bound under the tenant.
      const claim = (
        key: ItemKey,
        attributes: Record<string, unknown>,
        subscriptions?: Set<string>,
      ): TransactItem => {
        const names = Object.keys(attributes);
        return {
          Update: {
            TableName: table.tableName,
            Key: key,
            UpdateExpression: [
              `SET orgId = :org, boundAt = if_not_exists(boundAt, :at)${names.map((name) => `, #${name} = :${name}`).join('')}`,
              `ADD #version :one${subscriptions ? ', subscriptionIds :subscriptions' : ''}`,
            ].join(' '),
            ConditionExpression: 'attribute_not_exists(PK) OR orgId = :org',
            ExpressionAttributeNames: {
              '#version': 'version',
              ...Object.fromEntries(names.map((name) => [`#${name}`, name])),
            },
            ExpressionAttributeValues: {
              ':org': orgId,
              ':at': at,
              ':one': 1,
              ...Object.fromEntries(names.map((name) => [`:${name}`, attributes[name]])),
              ...(subscriptions ? { ':subscriptions': subscriptions } : {}),
            },
          },
        };
      };
      const conflicts: TenantBindingConflict[] = ['tenant', 'subscription'];
      try {
        await table.client.send(
          new TransactWriteCommand({
            TransactItems: [
              claim(
                azureTenantBindingKey(tenant),
                { type: 'azure_tenant', tenantId: tenant },
                new Set([subscription]),
              ),
              claim(azureSubscriptionBindingKey(subscription), {
                type: 'azure_subscription',
                subscriptionId: subscription,
                tenantId: tenant,
              }),
            ],
          }),
        );
        return null;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        const failed = conflicts.find((_, index) => reasons[index]?.Code === 'ConditionalCheckFailed');
        // Cancelled for another reason (a conflicting transaction, throttling): not an answer.
        if (!failed) throw error;
        return failed;
      }
    },

    async rebind({ tenantId, toOrgId, at, by, reason }) {
      const key = azureTenantBindingKey(tenantId);
      const current = await getItem(table, key);
      if (!current) return null;
      const fromOrgId = current.orgId as string;
      const subscriptionIds = [...((current.subscriptionIds as Set<string> | undefined) ?? [])].sort();
      const move = (itemKey: ItemKey): TransactItem => ({
        Update: {
          TableName: table.tableName,
          Key: itemKey,
          UpdateExpression: 'SET orgId = :to, reboundAt = :at ADD #version :one',
          ConditionExpression: 'orgId = :from',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':to': toOrgId, ':from': fromOrgId, ':at': at, ':one': 1 },
        },
      });
      const audit: TransactItem = {
        Put: {
          TableName: table.tableName,
          Item: {
            ...azureTenantAuditKey(tenantId, at, randomUUID()),
            type: 'azure_tenant_audit',
            action: 'rebind',
            tenantId: tenantId.toLowerCase(),
            fromOrgId,
            toOrgId,
            subscriptionIds,
            by,
            reason,
            at,
            version: 1,
          },
        },
      };
      await table.client.send(
        new TransactWriteCommand({
          TransactItems: [
            move(key),
            ...subscriptionIds.map((id) => move(azureSubscriptionBindingKey(id))),
            audit,
          ],
        }),
      );
      return { fromOrgId, subscriptionIds };
    },

    async firstUseOfIdToken(tokenId, expiresAt) {
      const hash = createHash('sha256').update(tokenId).digest('hex');
      const existing = await putIfAbsent(table, azureIdTokenKey(hash), {
        type: 'azure_id_token',
        // Kept a day past the token's end, beyond any clock skew the verification allows.
        expiresAt: Math.floor(Date.parse(expiresAt) / 1000) + 86_400,
        version: 1,
      });
      return existing === null;
    },
  };
}
