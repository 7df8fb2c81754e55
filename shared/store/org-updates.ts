import type { NameClaim, OrgUpdateRepository } from '../app/ports';
import { cloudProviders } from '../domain/cloud-providers';
import { ConflictError, NotFoundError } from '../domain/errors';
import { normalizeOrgName, type Organization } from '../domain/orgs';
import { type ConditionalUpdate, putIfAbsent, updateReturningIf, upsert } from './conditional-writes';
import { childLinkKey, childNameKey, orgKey, orgListIndexKey } from './keys';
import { toOrganization } from './orgs';
import { getItem, type StoredItem, type TableClient } from './table-client';

/**
 * Creating orgs, a partner's claims on child names and its child links, and an org's settings
 * (docs/data-model.md); orgs.ts reads them.
 */
export function createOrgUpdateRepository(table: TableClient): OrgUpdateRepository {
  /** Applies `update` to an existing org (a version-counted write); NotFoundError for an unknown org. */
  async function updatedOrg(
    orgId: string,
    update: Pick<ConditionalUpdate, 'expression' | 'names' | 'values'>,
  ): Promise<Organization> {
    const item = await updateReturningIf(table, {
      ...update,
      key: orgKey(orgId),
      condition: 'attribute_exists(PK)',
    });
    if (!item) throw unknownOrg(orgId);
    return toOrganization(item);
  }

  return {
    async create(org) {
      const existing = await putIfAbsent(table, orgKey(org.id), toOrgItem(org));
      if (existing) throw new ConflictError(`Organization ${org.id} exists already`);
    },

    async setOfferLinks(orgId, links, at) {
      const given = cloudProviders.filter((provider) => links[provider] !== undefined);
      if (given.length === 0) {
        const item = await getItem(table, orgKey(orgId));
        if (!item) throw unknownOrg(orgId);
        return toOrganization(item);
      }
      const names: Record<string, string> = { '#links': 'offerLinks' };
      const values: Record<string, unknown> = { ':at': at };
      const sets = ['updatedAt = :at'];
      for (const provider of given) {
        names[`#${provider}`] = provider;
        values[`:${provider}`] = links[provider];
        sets.push(`#links.#${provider} = :${provider}`);
      }
      return updatedOrg(orgId, { expression: `SET ${sets.join(', ')}`, names, values });
    },

    setCommitmentSharing(orgId, sharing, at) {
      return updatedOrg(orgId, {
        expression: 'SET commitmentSharing = :sharing, updatedAt = :at',
        values: { ':sharing': sharing, ':at': at },
      });
    },

    setRenewalHorizonDays(orgId, days, at) {
      return updatedOrg(orgId, {
        expression: 'SET renewalHorizonDays = :days, updatedAt = :at',
        values: { ':days': days, ':at': at },
      });
    },

    setMaxUpfrontCost(orgId, maxUpfrontCost, at) {
      return updatedOrg(orgId, {
        expression:
          maxUpfrontCost === null
            ? 'SET updatedAt = :at REMOVE maxUpfrontCost'
            : 'SET maxUpfrontCost = :max, updatedAt = :at',
        values: { ':at': at, ...(maxUpfrontCost === null ? {} : { ':max': maxUpfrontCost }) },
      });
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
    renewalHorizonDays: org.renewalHorizonDays,
    maxUpfrontCost: org.maxUpfrontCost ?? undefined,
    createdAt: org.createdAt,
    updatedAt: org.updatedAt,
  };
}

function unknownOrg(orgId: string): NotFoundError {
  return new NotFoundError(`Organization ${orgId} does not exist`);
}
