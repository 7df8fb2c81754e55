import type { Repositories } from '../app/ports';
import { createApiKeyRepository } from './api-keys';
import { createCommitmentRepository } from './commitments';
import { createMembershipRepository } from './memberships';
import { createOrgRepository } from './orgs';
import { createPlanRepository } from './plans';
import type { TableClient } from './table-client';
import { createUsageRepository } from './usage';
import { createUserRepository } from './users';

/** Every repository on one table: what the composition roots hand to use cases. */
export function createStore(table: TableClient): Repositories {
  return {
    orgs: createOrgRepository(table),
    users: createUserRepository(table),
    memberships: createMembershipRepository(table),
    apiKeys: createApiKeyRepository(table),
    usage: createUsageRepository(table),
    commitments: createCommitmentRepository(table),
    plans: createPlanRepository(table),
  };
}
