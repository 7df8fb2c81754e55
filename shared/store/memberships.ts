import type { MembershipRepository } from '../app/ports';
import { type Membership, type MembershipOrigin, type MembershipRole, normalizeEmail } from '../domain/orgs';
import { upsert } from './conditional-writes';
import {
  membershipByUserIndexKey,
  membershipKey,
  membershipPrefix,
  orgPartition,
  orgPartitionPrefix,
  userPartition,
} from './keys';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/**
 * Memberships live in their org's partition (listed per org) and are indexed in GSI1 under their
 * user (listed per user) (docs/data-model.md).
 */
export function createMembershipRepository(table: TableClient): MembershipRepository {
  return {
    async get(orgId, email) {
      const item = await getItem(table, membershipKey(orgId, email));
      return item ? toMembership(item) : null;
    },

    async put(membership) {
      await upsert(
        table,
        membershipKey(membership.orgId, normalizeEmail(membership.email)),
        membershipAttributes(membership),
      );
    },

    async listByOrg(orgId) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :org AND begins_with(SK, :member)',
        ExpressionAttributeValues: { ':org': orgPartition(orgId), ':member': membershipPrefix },
      });
      return items.map(toMembership);
    },

    async listByUser(email) {
      const items = await queryAll(table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :user AND begins_with(GSI1SK, :org)',
        ExpressionAttributeValues: { ':user': userPartition(email), ':org': orgPartitionPrefix },
      });
      return items.map(toMembership);
    },
  };
}

/** A membership's stored attributes besides its key and write count. */
export function membershipAttributes(membership: Membership): StoredItem {
  const email = normalizeEmail(membership.email);
  return {
    ...membershipByUserIndexKey(email, membership.orgId),
    type: 'membership',
    orgId: membership.orgId,
    email,
    role: membership.role,
    createdAt: membership.createdAt,
    updatedAt: membership.updatedAt,
    ...(membership.addedBy ? { addedBy: membership.addedBy } : {}),
  };
}

function toMembership(item: StoredItem): Membership {
  return {
    orgId: item.orgId as string,
    email: item.email as string,
    role: item.role as MembershipRole,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    ...(item.addedBy ? { addedBy: item.addedBy as MembershipOrigin } : {}),
  };
}
