import type { MembershipRole } from './orgs';

/**
 * Who is calling, as established by the authorizer from stored data (never from request fields).
 * A user acts within its org with its membership role; a partner acts on its own org and on its
 * child orgs. `scopes` limits Bearer-token callers; API-key callers carry every scope.
 */
export type Principal =
  | {
      readonly kind: 'user';
      readonly orgId: string;
      readonly userId: string;
      readonly role: MembershipRole;
      readonly scopes: readonly string[];
    }
  | {
      readonly kind: 'partner';
      readonly orgId: string;
      readonly scopes: readonly string[];
    };
