import type { Clock, OrgRepository } from '../../app/ports';
import { BoundedCache } from './bounded-cache';

export interface OrgPlacementCacheOptions {
  readonly maxOrgs: number;
  /** Placements never change; the age bound only lets a long-lived process forget unused ones. */
  readonly maxAgeMs: number;
}

export const defaultOrgPlacementCacheOptions: OrgPlacementCacheOptions = {
  maxOrgs: 10_000,
  maxAgeMs: 3_600_000,
};

/**
 * Keeps org placements (id, parent, partner flag) in process memory: they are fixed when an org is
 * created, so a cached one is never out of date, and the access check of a request costs no read.
 * Everything that can change (keys, memberships, offer links) is still read on every request.
 */
export function withOrgPlacementCache(
  orgs: OrgRepository,
  clock: Clock,
  options: OrgPlacementCacheOptions = defaultOrgPlacementCacheOptions,
): OrgRepository {
  const placements = new BoundedCache<Awaited<ReturnType<OrgRepository['placement']>>>({
    maxEntries: options.maxOrgs,
    maxAgeMs: options.maxAgeMs,
    clock,
  });
  return {
    ...orgs,
    placement: async (orgId) => (await placements.get(orgId, () => orgs.placement(orgId))) ?? null,
  };
}
