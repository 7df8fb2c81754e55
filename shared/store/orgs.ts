import type { OrgRepository } from '../app/ports';
import type { CommitmentSharing } from '../domain/engine/shapes/model';
import { DEFAULT_RENEWAL_HORIZON_DAYS } from '../domain/engine/shapes/plan-time';
import type { Address, ChildOrgLink, MarketplaceOfferLinks, Organization } from '../domain/orgs';
import { allOrgsPartition, childLinkKey, childLinkPrefix, orgKey, orgPartition } from './keys';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/** Reading orgs and a partner's child links (docs/data-model.md); org-updates.ts writes them. */
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

    async list() {
      const items = await queryAll(table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :orgs',
        ExpressionAttributeValues: { ':orgs': allOrgsPartition },
      });
      return items.map(toOrganization);
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

export function toOrganization(item: StoredItem): Organization {
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
    // Likewise for the renewal horizon: the default.
    renewalHorizonDays: (item.renewalHorizonDays as number | undefined) ?? DEFAULT_RENEWAL_HORIZON_DAYS,
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
