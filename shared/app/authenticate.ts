import { type ApiKeyOwner, parseApiKey, secretMatches, usageIdentifierOfKey } from '../auth/api-keys';
import type { Principal } from '../domain/principal';
import type { ContextWith } from './ports';

/** API-key callers are not limited by OAuth scopes. */
const API_KEY_SCOPES = ['*'] as const;

/** A caller an API key authenticated: who it acts as, and the throttle bucket of its key. */
export interface AuthenticatedCaller {
  readonly principal: Principal;
  /** The key's API Gateway usage-plan key (`usageIdentifierOfKey`). */
  readonly usageIdentifier: string;
}

/** The principal a presented API key acts as (see `authenticateCaller`); null when it is refused. */
export async function authenticateApiKey(
  ctx: ContextWith<'apiKeys' | 'memberships' | 'orgs'>,
  apiKey: string | undefined,
): Promise<Principal | null> {
  return (await authenticateCaller(ctx, apiKey))?.principal ?? null;
}

/**
 * Resolves a presented API key to the principal it acts as, from stored data only: the key must
 * exist, be unrevoked and match in constant time; a user key's role is read from its current
 * membership (a removed member's key stops working); a partner key needs its org to still be a
 * partner. Answers null for every failure alike, so callers cannot tell which check failed.
 */
export async function authenticateCaller(
  ctx: ContextWith<'apiKeys' | 'memberships' | 'orgs'>,
  apiKey: string | undefined,
): Promise<AuthenticatedCaller | null> {
  const parsed = apiKey ? parseApiKey(apiKey.trim()) : null;
  if (!parsed) return null;
  const record = await ctx.repos.apiKeys.get(parsed.keyId);
  if (!record || record.revokedAt !== null || !secretMatches(parsed.secret, record.secretHash)) return null;

  const principal = await principalOf(ctx, record.owner);
  if (!principal) return null;
  // Best effort: a failed bookkeeping write must not refuse a valid key.
  await ctx.repos.apiKeys.markUsed(record.keyId, ctx.clock.now().toISOString()).catch(() => undefined);
  return { principal, usageIdentifier: usageIdentifierOfKey(record.keyId) };
}

async function principalOf(
  ctx: ContextWith<'apiKeys' | 'memberships' | 'orgs'>,
  owner: ApiKeyOwner,
): Promise<Principal | null> {
  if (owner.kind === 'partner') {
    const org = await ctx.repos.orgs.placement(owner.orgId);
    return org?.isPartner ? { kind: 'partner', orgId: org.id, scopes: API_KEY_SCOPES } : null;
  }
  const membership = await ctx.repos.memberships.get(owner.orgId, owner.email);
  if (!membership) return null;
  return {
    kind: 'user',
    orgId: membership.orgId,
    userId: membership.email,
    role: membership.role,
    scopes: API_KEY_SCOPES,
  };
}
