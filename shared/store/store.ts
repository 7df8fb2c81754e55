import type { Clock, Repositories } from '../app/ports';
import { createApiKeyRepository } from './api-keys';
import { createAzureTenantRepository } from './azure-tenants';
import { withThrottledKeyUse } from './caching/key-use-throttle';
import { withOrgPlacementCache } from './caching/org-placement-cache';
import { withPlanContentCache } from './caching/plan-content-cache';
import { createCatalogStore } from './catalog-versions';
import { createCommitmentRepository } from './commitments';
import { createComputedPlanRepository } from './computed-plans';
import { createIdempotencyRepository } from './idempotency-records';
import { createMembershipRepository } from './memberships';
import { createOAuthClientRepository } from './oauth/clients';
import { createOAuthGrantRepository } from './oauth/grants';
import { createSignInRepository } from './oauth/sign-ins';
import { createOnboardingRepository } from './onboarding';
import { createOrgUpdateRepository } from './org-updates';
import { createOrgRepository } from './orgs';
import { createPlanRepository } from './plans';
import { createPurchaseRepository } from './purchases';
import type { TableClient } from './table-client';
import { createTokenFamilyRevocations } from './token-families';
import { createUsageRepository } from './usage';
import { createUsageSyncStateRepository } from './usage-sync-states';
import { createUserRepository } from './users';

/** Every repository on one table, each call a storage call. */
export function createStore(table: TableClient): Repositories {
  return {
    orgs: createOrgRepository(table),
    orgUpdates: createOrgUpdateRepository(table),
    users: createUserRepository(table),
    memberships: createMembershipRepository(table),
    apiKeys: createApiKeyRepository(table),
    usage: createUsageRepository(table),
    commitments: createCommitmentRepository(table),
    plans: createPlanRepository(table),
    computedPlans: createComputedPlanRepository(table),
    idempotencyRecords: createIdempotencyRepository(table),
    purchases: createPurchaseRepository(table),
    tokenFamilyRevocations: createTokenFamilyRevocations(table),
    oauthClients: createOAuthClientRepository(table),
    signIns: createSignInRepository(table),
    oauthGrants: createOAuthGrantRepository(table),
    onboarding: createOnboardingRepository(table),
    azureTenants: createAzureTenantRepository(table),
    usageSyncStates: createUsageSyncStateRepository(table),
    catalog: createCatalogStore(table),
  };
}

/** How a long-lived process builds one repository: on the table, behind its cache if it has one. */
export type RepositoryBuilder<K extends keyof Repositories> = (
  table: TableClient,
  clock: Clock,
) => Repositories[K];

/*
 * The repositories of a long-lived process (a Lambda container, the local server), one builder
 * each: a function names the builders of the repositories it uses and bundles no other (an
 * object holding every builder would bring them all along; shared/runtime/current.ts). Three
 * are behind in-process caches (docs/architecture.md, Caches). Only what cannot change, or
 * bookkeeping that may lag, is cached: org placements, a plan id's content, key use records.
 * Whether a plan is still served is never cached (the plan set is read on every request).
 */
export const orgRepository: RepositoryBuilder<'orgs'> = (table, clock) =>
  withOrgPlacementCache(createOrgRepository(table), clock);
/** Org writes: uncached (the placement cache keeps only what never changes). */
export const orgUpdateRepository: RepositoryBuilder<'orgUpdates'> = (table) =>
  createOrgUpdateRepository(table);
export const userRepository: RepositoryBuilder<'users'> = (table) => createUserRepository(table);
export const membershipRepository: RepositoryBuilder<'memberships'> = (table) =>
  createMembershipRepository(table);
export const apiKeyRepository: RepositoryBuilder<'apiKeys'> = (table, clock) =>
  withThrottledKeyUse(createApiKeyRepository(table), clock);
export const usageRepository: RepositoryBuilder<'usage'> = (table) => createUsageRepository(table);
export const commitmentRepository: RepositoryBuilder<'commitments'> = (table) =>
  createCommitmentRepository(table);
export const planRepository: RepositoryBuilder<'plans'> = (table, clock) =>
  withPlanContentCache(createPlanRepository(table), clock);
/** What a plan computation writes: no cache (its claims and writes must reach the table). */
export const computedPlanRepository: RepositoryBuilder<'computedPlans'> = (table) =>
  createComputedPlanRepository(table);
export const idempotencyRepository: RepositoryBuilder<'idempotencyRecords'> = (table) =>
  createIdempotencyRepository(table);
export const purchaseRepository: RepositoryBuilder<'purchases'> = (table) => createPurchaseRepository(table);
export const tokenFamilyRevocations: RepositoryBuilder<'tokenFamilyRevocations'> = (table) =>
  createTokenFamilyRevocations(table);
export const oauthClientRepository: RepositoryBuilder<'oauthClients'> = (table) =>
  createOAuthClientRepository(table);
export const signInRepository: RepositoryBuilder<'signIns'> = (table) => createSignInRepository(table);
export const oauthGrantRepository: RepositoryBuilder<'oauthGrants'> = (table) =>
  createOAuthGrantRepository(table);
export const onboardingRepository: RepositoryBuilder<'onboarding'> = (table) =>
  createOnboardingRepository(table);
export const azureTenantRepository: RepositoryBuilder<'azureTenants'> = (table) =>
  createAzureTenantRepository(table);
export const usageSyncStateRepository: RepositoryBuilder<'usageSyncStates'> = (table) =>
  createUsageSyncStateRepository(table);
/** The stored catalogs: uncached here (what a function keeps is the price lists it loaded, stored-catalog.ts). */
export const catalogRepository: RepositoryBuilder<'catalog'> = (table) => createCatalogStore(table);

/** The builders of a function's repositories, by repository name. */
export type RepositoryBuilders<K extends keyof Repositories> = { readonly [P in K]: RepositoryBuilder<P> };

/** The builders of every repository: what a long-lived process or a function using them all builds. */
export const everyRepository: RepositoryBuilders<keyof Repositories> = {
  orgs: orgRepository,
  orgUpdates: orgUpdateRepository,
  users: userRepository,
  memberships: membershipRepository,
  apiKeys: apiKeyRepository,
  usage: usageRepository,
  commitments: commitmentRepository,
  plans: planRepository,
  computedPlans: computedPlanRepository,
  idempotencyRecords: idempotencyRepository,
  purchases: purchaseRepository,
  tokenFamilyRevocations,
  oauthClients: oauthClientRepository,
  signIns: signInRepository,
  oauthGrants: oauthGrantRepository,
  onboarding: onboardingRepository,
  azureTenants: azureTenantRepository,
  usageSyncStates: usageSyncStateRepository,
  catalog: catalogRepository,
};

/** Every repository of a long-lived process (the local server, tests of the composition). */
export function createCachingStore(table: TableClient, clock: Clock): Repositories {
  return buildRepositories(everyRepository, table, clock);
}

/** The repositories the builders name, on one table. */
export function buildRepositories<K extends keyof Repositories>(
  builders: RepositoryBuilders<K>,
  table: TableClient,
  clock: Clock,
): Pick<Repositories, K> {
  const repositories: Partial<Pick<Repositories, K>> = {};
  for (const name of Object.keys(builders) as K[]) {
    (repositories as Record<K, unknown>)[name] = builders[name](table, clock);
  }
  return repositories as Pick<Repositories, K>;
}
