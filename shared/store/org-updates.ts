import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NameClaim, OrgUpdateRepository } from '../app/ports';
import { cloudProviders } from '../domain/cloud-providers';
import { ConflictError, NotFoundError } from '../domain/errors';
import { normalizeOrgName, type Organization } from '../domain/orgs';
import { isConditionFailure, putIfAbsent, updateReturningIf, upsert } from './conditional-writes';
import { childLinkKey, childNameKey, orgKey, orgListIndexKey } from './keys';
import { toOrganization } from './orgs';
import { getItem, type StoredItem, type TableClient } from './table-client';

/**
 * Creating orgs, a partner's claims on child names and its child links, and an org's settings
 * (docs/data-model.md); orgs.ts reads them.
 */
export function createOrgUpdateRepository(table: TableClient): OrgUpdateRepository {
  return {
    async create(org) {
      const existing = await putIfAbsent(table, orgKey(org.id), toOrgItem(org));
      if (existing) throw new ConflictError(`Organization ${org.id} exists already`);
    },

    async setOfferLinks(orgId, links, at) {
      const given = cloudProviders.filter((provider) => links[provider] !== undefined);
      if (given.length === 0) {
        const item = await getItem(table, orgKey(orgId));
        if (!item) throw new NotFoundError(`Organization ${orgId} does not exist`);
        return toOrganization(item);
      }
      const names: Record<string, string> = { '#links': 'offerLinks', '#version': 'version' };
      const values: Record<string, unknown> = { ':at': at, ':one': 1 };
      const sets = ['updatedAt = :at'];
      for (const provider of given) {
        names[`#${provider}`] = provider;
        values[`:${provider}`] = links[provider];
        sets.push(`#links.#${provider} = :${provider}`);
      }
      try {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: orgKey(orgId),
            UpdateExpression: `SET ${sets.join(', ')} ADD #version :one`,
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return toOrganization(Attributes as StoredItem);
      } catch (error) {
        if (isConditionFailure(error)) throw new NotFoundError(`Organization ${orgId} does not exist`);
        throw error;
      }
    },

    async setCommitmentSharing(orgId, sharing, at) {
      try {
        const { Attributes } = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: orgKey(orgId),
            UpdateExpression: 'SET commitmentSharing = :sharing, updatedAt = :at ADD #version :one',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':sharing': sharing, ':at': at, ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return toOrganization(Attributes as StoredItem);
      } catch (error) {
        if (isConditionFailure(error)) throw new NotFoundError(`Organization ${orgId} does not exist`);
        throw error;
      }
    },

    async setMaxUpfrontCost(orgId, maxUpfrontCost, at) {
      const item = await updateReturningIf(table, {
        key: orgKey(orgId),
        expression:
          maxUpfrontCost === null
            ? 'SET updatedAt = :at REMOVE maxUpfrontCost'
            : 'SET maxUpfrontCost = :max, updatedAt = :at',
        condition: 'attribute_exists(PK)',
        values: { ':at': at, ...(maxUpfrontCost === null ? {} : { ':max': maxUpfrontCost }) },
      });
      if (!item) throw new NotFoundError(`Organization ${orgId} does not exist`);
      return toOrganization(item);
    },

    async claimChildName(partnerOrgId, normalizedName, childOrgId, registration): Promise<NameClaim> {
      const existing = await putIfAbsent(table, childNameKey(partnerOrgId, normalizedName), {
        type: 'child_name',
        version: 1,
        partnerOrgId,
        normalizedName,
        childOrgId,
        registration,
      });
      if (!existing) return { claimed: true };
      const holder = existing.childOrgId as string;
      // A retry of the registration that claimed the name first still holds it.
      return holder === childOrgId
        ? { claimed: true }
        : { claimed: false, orgId: holder, sameRegistration: existing.registration === registration };
    },

    async putChildLink(link) {
      await upsert(table, childLinkKey(link.partnerOrgId, link.childOrgId), {
        type: 'child_link',
        partnerOrgId: link.partnerOrgId,
        childOrgId: link.childOrgId,
        childOrgName: link.childOrgName,
        createdAt: link.createdAt,
      });
    },
  };
}

/** Nullable attributes are left out when null ("absent" stores null). */
function toOrgItem(org: Organization): StoredItem {
  return {
    ...orgListIndexKey(normalizeOrgName(org.name)),
    type: 'org',
    version: org.version,
    id: org.id,
    name: org.name,
    domain: org.domain ?? undefined,
    primaryAddress: org.primaryAddress ?? undefined,
    offerLinks: org.offerLinks,
    partnerSubscriptionId: org.partnerSubscriptionId ?? undefined,
    parentOrgId: org.parentOrgId ?? undefined,
    isPartner: org.isPartner,
    commitmentSharing: org.commitmentSharing,
    maxUpfrontCost: org.maxUpfrontCost ?? undefined,
    createdAt: org.createdAt,
    updatedAt: org.updatedAt,
  };
}
