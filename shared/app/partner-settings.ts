import { ConflictError } from '../domain/errors';
import { cloudProviders, type MarketplaceOfferLinks, type Organization } from '../domain/orgs';
import type { Principal } from '../domain/principal';
import { loadOrgFor } from './org-access';
import type { AppContext } from './ports';

/** Optimistic-locking retries before a concurrent writer's conflict is reported to the caller. */
const MAX_ATTEMPTS = 3;

/**
 * Spec #11: sets the org's marketplace offer links. Links not given keep their value. The links
 * are stored as given (validated https URLs upstream) and never fetched by the service.
 */
export async function updatePartnerSettings(
  ctx: AppContext,
  principal: Principal,
  orgId: string,
  links: Partial<MarketplaceOfferLinks>,
): Promise<Organization> {
  for (let attempt = 1; ; attempt += 1) {
    const org = await loadOrgFor(ctx, principal, orgId, 'manage');
    const updated: Organization = {
      ...org,
      offerLinks: mergeLinks(org.offerLinks, links),
      updatedAt: ctx.clock.now().toISOString(),
      version: org.version + 1,
    };
    try {
      await ctx.repos.orgs.update(updated);
      return updated;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

/** A link given (a URL, or null to clear it) replaces the stored one; a link not given is kept. */
function mergeLinks(
  stored: MarketplaceOfferLinks,
  given: Partial<MarketplaceOfferLinks>,
): MarketplaceOfferLinks {
  const merged = { ...stored };
  for (const provider of cloudProviders) {
    const link = given[provider];
    if (link !== undefined) merged[provider] = link;
  }
  return merged;
}
