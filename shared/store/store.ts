import type { Clock, Repositories } from '../app/ports';
import { createApiKeyRepository } from './api-keys';
import { withThrottledKeyUse } from './caching/key-use-throttle';
import { withOrgPlacementCache } from './caching/org-placement-cache';
import { withPlanContentCache } from './caching/plan-content-cache';
import { createCommitmentRepository } from './commitments';
import { createIdempotencyRepository } from './idempotency-records';
import { createMembershipRepository } from './memberships';
import { createOAuthRepository } from './oauth';
import { createOnboardingRepository } from './onboarding';
import { createOrgRepository } from './orgs';
import { createPlanRepository } from './plans';
import { createPurchaseRepository } from './purchases';
import type { TableClient } from './table-client';
import { createTokenFamilyRevocations } from './token-families';
import { createUsageRepository } from './usage';
import { createUserRepository } from './users';

/** Every repository on one table, each call a storage call. */
export function createStore(table: TableClient): Repositories {
  return {
    orgs: createOrgRepository(table),
    users: createUserRepository(table),
    memberships: createMembershipRepository(table),
    apiKeys: createApiKeyRepository(table),
    usage: createUsageRepository(table),
    commitments: createCommitmentRepository(table),
    plans: createPlanRepository(table),
    idempotencyRecords: createIdempotencyRepository(table),
    purchases: createPurchaseRepository(table),
    tokenFamilyRevocations: createTokenFamilyRevocations(table),
    oauth: createOAuthRepository(table),
    onboarding: createOnboardingRepository(table),
  };
}

/**
 * The repositories of a long-lived process (a Lambda container, the local server): the store's,
 * three of them behind in-process caches (docs/architecture.md, Caches). Only what cannot change,
 * or bookkeeping that may lag, is cached: org placements, a plan id's content, key use records.
 * Whether a plan is still served is never cached (the plan set is read on every request).
 */
export function createCachingStore(table: TableClient, clock: Clock): Repositories {
  const store = createStore(table);
  return {
    ...store,
    orgs: withOrgPlacementCache(store.orgs, clock),
    apiKeys: withThrottledKeyUse(store.apiKeys, clock),
    plans: withPlanContentCache(store.plans, clock),
  };
}
