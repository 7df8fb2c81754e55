import type { MarketplaceOfferLinks, Organization } from '../domain/orgs';
import type { Principal } from '../domain/principal';
import { loadOrgFor } from './org-access';
import type { ContextWith } from './ports';

/**
 * Spec #11: sets the org's marketplace offer links; links not given keep their value, null clears
 * one. The links are stored as given (validated https URLs upstream) and never fetched.
 */
export async function updatePartnerSettings(
  ctx: ContextWith<'orgUpdates' | 'orgs'>,
  principal: Principal,
  orgId: string,
  links: Partial<MarketplaceOfferLinks>,
): Promise<Organization> {
  await loadOrgFor(ctx, principal, orgId, 'manage');
  return ctx.repos.orgUpdates.setOfferLinks(orgId, links, ctx.clock.now().toISOString());
}
