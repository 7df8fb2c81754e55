import type { TokenFamilyRevocations } from '../app/ports';
import { oauthFamilyKey } from './oauth/oauth-keys';
import type { TableClient } from './table-client';
import { getItem } from './table-client';

/**
 * Reads refresh-token families (item `oauth_family`, docs/data-model.md): `familyId`, `revoked`
 * (boolean), `revokedAt`. The authorization server writes them; the authorizer only reads the
 * flag, with a consistent read, so a revocation refuses the family's access tokens at once.
 * A missing item counts as revoked: a token naming a family never stored is not one of ours.
 */
export function createTokenFamilyRevocations(table: TableClient): TokenFamilyRevocations {
  return {
    async isRevoked(familyId) {
      const item = await getItem(table, oauthFamilyKey(familyId));
      return item === null || item.revoked !== false;
    },
  };
}
