import type { ApiKeyRepository, MembershipRepository, OrgRepository, UserRepository } from '../app/ports';
import { createApiKeyRepository } from './api-keys';
import { createMembershipRepository } from './memberships';
import { createOrgRepository } from './orgs';
import type { TableClient } from './table-client';
import { createUserRepository } from './users';

/** Every repository on one table: what the composition roots hand to use cases. */
export interface Store {
  readonly orgs: OrgRepository;
  readonly users: UserRepository;
  readonly memberships: MembershipRepository;
  readonly apiKeys: ApiKeyRepository;
}

export function createStore(table: TableClient): Store {
  return {
    orgs: createOrgRepository(table),
    users: createUserRepository(table),
    memberships: createMembershipRepository(table),
    apiKeys: createApiKeyRepository(table),
  };
}
