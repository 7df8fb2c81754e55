import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NameClaim, OrgRepository } from '../app/ports';
import { cloudProviders } from '../domain/cloud-providers';
import type { CommitmentSharing } from '../domain/engine/model';
import { ConflictError, NotFoundError } from '../domain/errors';
import {
  type Address,
  type ChildOrgLink,
  type MarketplaceOfferLinks,
  normalizeOrgName,
  type Organization,
} from '../domain/orgs';
import { isConditionFailure, putIfAbsent, updateReturningIf, upsert } from './conditional-writes';
import {
  allOrgsPartition,
  childLinkKey,
  childLinkPrefix,
  childNameKey,
  orgKey,
  orgListIndexKey,
  orgPartition,
} from './keys';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/** Orgs, a partner's child links and its claims on child names (docs/data-model.md). */
export function createOrgRepository(table: TableClient): OrgRepository {
  return {
    async get(orgId) {
      const item = await getItem(table, orgKey(orgId));
      return item ? toOrganization(item) : null;
    },

    async placement(orgId) {
      const item = await getItem(table, orgKey(orgId));
      if (!item) return null;
      const { id, parentOrgId, isPartner } = toOrganization(item);
      return { id, parentOrgId, isPartner };
    },

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

    async list() {
      const items = await queryAll(table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :orgs',
        ExpressionAttributeValues: { ':orgs': allOrgsPartition },
      });
      return items.map(toOrganization);
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

    async getChildLink(partnerOrgId, childOrgId) {
      const item = await getItem(table, childLinkKey(partnerOrgId, childOrgId));
      return item ? toChildLink(item) : null;
    },

    async listChildLinks(partnerOrgId) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :partner AND begins_with(SK, :child)',
        ExpressionAttributeValues: { ':partner': orgPartition(partnerOrgId), ':child': childLinkPrefix },
      });
      return items.map(toChildLink);
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

function toOrganization(item: StoredItem): Organization {
  return {
    id: item.id as string,
    name: item.name as string,
    domain: (item.domain as string | undefined) ?? null,
    primaryAddress: item.primaryAddress ? toAddress(item.primaryAddress as Address) : null,
    offerLinks: toOfferLinks(item.offerLinks as MarketplaceOfferLinks),
    partnerSubscriptionId: (item.partnerSubscriptionId as string | undefined) ?? null,
    parentOrgId: (item.parentOrgId as string | undefined) ?? null,
    isPartner: item.isPartner as boolean,
    // Orgs stored before the setting existed share commitments, as the providers do by default.
    commitmentSharing: (item.commitmentSharing as CommitmentSharing | undefined) ?? 'organization',
    maxUpfrontCost: (item.maxUpfrontCost as number | null | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    version: item.version as number,
  };
}

function toAddress(address: Address): Address {
  const { line1, line2, city, state, zip, country } = address;
  return { line1, line2: line2 ?? null, city, state, zip, country };
}

function toOfferLinks(links: MarketplaceOfferLinks): MarketplaceOfferLinks {
  return { aws: links.aws ?? null, azure: links.azure ?? null, gcp: links.gcp ?? null };
}

function toChildLink(item: StoredItem): ChildOrgLink {
  return {
    partnerOrgId: item.partnerOrgId as string,
    childOrgId: item.childOrgId as string,
    childOrgName: item.childOrgName as string,
    createdAt: item.createdAt as string,
  };
}
