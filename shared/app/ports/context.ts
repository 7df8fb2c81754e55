import type { ResidualArena } from '../../domain/engine';
import type { AzureTenantRepository } from './azure-tenants';
import type { CatalogStore } from './catalog';
import type { Clock, IdGenerator } from './clock-and-ids';
import type { IdempotencyRepository } from './idempotency';
import type { OAuthClientRepository, OAuthGrantRepository, SignInRepository } from './oauth';
import type { OnboardingRepository } from './onboarding';
import type {
  ApiKeyRepository,
  MembershipRepository,
  OrgRepository,
  OrgUpdateRepository,
  TokenFamilyRevocations,
  UserRepository,
} from './orgs-and-keys';
import type { ComputedPlanRepository, PlanComputation, PlanRepository } from './plans';
import type { PurchaseRepository } from './purchases';
import type { CommitmentRepository, UsageRepository } from './usage';
import type { UsageSyncStateRepository } from './usage-sync';

/** What a use case is given: every repository, or some of them, with the clock and the ids. */

/** Every repository a use case may reach, as one object (built by shared/store's createStore). */
export interface Repositories {
  readonly orgs: OrgRepository;
  readonly orgUpdates: OrgUpdateRepository;
  readonly users: UserRepository;
  readonly memberships: MembershipRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly usage: UsageRepository;
  readonly commitments: CommitmentRepository;
  readonly plans: PlanRepository;
  readonly computedPlans: ComputedPlanRepository;
  readonly idempotencyRecords: IdempotencyRepository;
  readonly purchases: PurchaseRepository;
  readonly tokenFamilyRevocations: TokenFamilyRevocations;
  readonly oauthClients: OAuthClientRepository;
  readonly signIns: SignInRepository;
  readonly oauthGrants: OAuthGrantRepository;
  readonly onboarding: OnboardingRepository;
  readonly azureTenants: AzureTenantRepository;
  readonly usageSyncStates: UsageSyncStateRepository;
  /** The refreshed price catalogs (docs/catalog.md, Stored catalog). */
  readonly catalog: CatalogStore;
}

/** What every use case is given by the composition root. */
export interface AppContext {
  readonly repos: Repositories;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /**
   * Memory the plan engine reuses from one computation to the next (residual-arena.ts): one per
   * process, as a warm Lambda computes plan after plan. Absent: each computation allocates its own.
   */
  readonly engineMemory?: ResidualArena;
  /**
   * Brings an org's plans for a provider up to date (`refreshPlans`, plan-computation.ts) and
   * tells how it went: in this process for the local runtime, tests and tools; on AWS in the
   * plan-computation function, which the plan-serving functions invoke, so that they carry no
   * engine. The plan-serving use cases need it (commitment-plans.ts); others leave it out.
   */
  readonly planComputation?: PlanComputation;
}

/**
 * The context of a use case that needs only some repositories. A Lambda function builds only the
 * repositories its use cases name here (shared/runtime/function-context.ts), so its bundle carries no
 * other repository's code; a full AppContext (local runtime, tests) serves every use case.
 */
export type ContextWith<K extends keyof Repositories> = Omit<AppContext, 'repos'> & {
  readonly repos: Pick<Repositories, K>;
};
